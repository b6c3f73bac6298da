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
	case "uuid":
		return UUID, "UUID", true
	case "json-pointer":
		return JSONPointer, "JSONPointer", true
	case "relative-json-pointer":
		return RelativeJSONPointer, "RelativeJSONPointer", true
	case "uri-template":
		return URITemplate, "URITemplate", true
	case "hostname":
		return Hostname, "Hostname", true
	case "idn-hostname":
		return IDNHostname, "IDNHostname", true
	case "email":
		return Email, "Email", true
	case "idn-email":
		return IDNEmail, "IDNEmail", true
	case "regex":
		return Regex, "Regex", true
	}
	return nil, "", false
}
