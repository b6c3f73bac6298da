package format

// Lookup maps a JSON Schema format name ("date-time", "uri", ...) to its
// checker and to the checker's exported Go identifier in this package, so
// a generator can emit format.<goName>(s). ok is false for a format this
// package does not know (JSON Schema treats unknown formats as
// annotations: they always pass).
func Lookup(name string) (check func(string) bool, goName string, ok bool) {
	switch name {
	case "uri":
		return URI, "URI", true
	case "uri-reference":
		return URIReference, "URIReference", true
	case "iri":
		return IRI, "IRI", true
	case "iri-reference":
		return IRIReference, "IRIReference", true
	case "date-time":
		return DateTime, "DateTime", true
	case "date":
		return Date, "Date", true
	case "time":
		return Time, "Time", true
	case "duration":
		return Duration, "Duration", true
	case "ipv4":
		return IPv4, "IPv4", true
	case "ipv6":
		return IPv6, "IPv6", true
	}
	return nil, "", false
}
