// Package format holds the checkers that generated decoders call for the
// JSON Schema 2020-12 "format" keyword when format assertion is on.
//
// Each checker is a func(string) bool named after its format (URI,
// DateTime, ...). Lookup maps a format name ("date-time") to the checker
// and its Go identifier ("DateTime"), so a generator can emit
// format.DateTime(s). The package uses only the standard library. No
// checker panics, whatever the input. None allocates, with one exception:
// Regex, for a pattern with more than 64 nested groups or more than 16
// group names or \k references. The time each checker takes grows
// linearly with the input.
//
// Invalid UTF-8 is never accepted where a format allows non-ASCII text.
// Where a format is ASCII-only, any non-ASCII byte fails it. Non-string
// JSON values are the generated code's business: a format applies to
// strings only.
//
// # What each checker accepts
//
// URI ("uri") is an absolute URI per RFC 3986 §3: scheme ":" hier-part
// ["?" query] ["#" fragment], checked against the whole grammar:
//   - userinfo, port digits;
//   - IP-literal with an IPv6address or an IPvFuture;
//   - reg-name (which also covers IPv4address, so "999.999.999.999" is a
//     valid reg-name);
//   - path, query and fragment characters;
//   - a percent-escape must be "%" and two hex digits.
//
// Spaces, controls, non-ASCII and the characters RFC 3986 excludes (<, >,
// ", {, }, |, \, ^, `) fail. Deviations: there are no scheme-specific
// rules ("http://" with an empty host passes, as the grammar allows). An
// RFC 6874 zone identifier ("[fe80::1%25eth0]") fails, since RFC 3986
// itself does not allow it.
//
// URIReference ("uri-reference") is an RFC 3986 §4.1 URI-reference: a URI
// or a relative reference, whose first path segment must not contain ":".
//
// IRI ("iri") and IRIReference ("iri-reference") follow RFC 3987 §2.2.
// They use the RFC 3986 grammar, plus ucschar wherever unreserved
// characters are allowed, plus iprivate in the query. Deviations: the
// RFC 3987 §4 Bidi recommendations and the §5 normalization guidance are
// not checked, as they are not syntax.
//
// URITemplate ("uri-template") is an RFC 6570 template of any level.
//   - Literals are the RFC's set plus "'", per RFC 6570 erratum 6937 (the
//     test suite expects this), or pct-encoded triplets.
//   - Expressions have an optional operator from "+#./;?&" and one or more
//     varspecs: a varname, then ":" and a max-length of 1-9999 with no
//     leading zero, or "*".
//
// Deviation: the operators reserved for future extensions ("=", ",", "!",
// "@", "|") are rejected, as RFC 6570 §3 requires of a processor, though
// the ABNF admits them.
//
// DateTime ("date-time") is RFC 3339 §5.6: full-date "T" full-time.
//   - "T" and "Z" may be lower case (RFC 3339 §5.6 NOTE).
//   - Fractional seconds may have any number of digits.
//   - The offset is "Z" or ±hh:mm with hh ≤ 23 and mm ≤ 59. "-00:00"
//     passes.
//   - Dates follow the proleptic Gregorian calendar: month lengths and
//     leap years. Years 0000-9999 pass.
//   - Second 60 passes only as 23:59:60 in UTC once the offset is taken
//     off ("15:59:60-08:00" passes, "23:59:60+01:00" fails), as the
//     JSON-Schema-Test-Suite expects.
//
// Deviations: a leap second is not checked against the IERS list, nor
// restricted to the last day of a month. The space separator, which RFC
// 3339 mentions only in prose, fails.
//
// Date ("date") is RFC 3339 full-date, on the same calendar. Time ("time")
// is RFC 3339 full-time: the offset is required, and the leap second rule
// is the one above.
//
// Duration ("duration") is RFC 3339 Appendix A duration: "P" then one of
// these:
//   - a date part of consecutive units among Y, M, D, with an optional
//     "T" time part;
//   - a "T" time part of consecutive units among H, M, S;
//   - weeks alone ("P2W").
//
// So "P1Y2D" and "PT1H2S" fail. There are no fractions and no sign.
// Deviation: the letters are case-insensitive, as ABNF string literals are
// (RFC 5234 §2.3), so "p1d" passes. ISO 8601 would want upper case.
//
// Email ("email") is an RFC 5321 §4.1.2 Mailbox.
//   - The local part is a Dot-string of atext atoms or a Quoted-string
//     (qtextSMTP and quoted-pairSMTP), at most 64 octets.
//   - The domain is a Hostname (below), or an address literal:
//     "[" IPv4 "]", or "[IPv6:" IPv6 "]" with the tag in any case.
//
// Deviations: a General-address-literal ("[tag:...]") is rejected, since
// no other tag is registered. RFC 5322 comments and folding white space
// are not accepted: this is the SMTP form.
//
// IDNEmail ("idn-email") is an RFC 6531 §3.3 Mailbox.
//   - Any well-formed non-ASCII code point (RFC 6532 UTF8-non-ascii) may
//     appear in the local part, dotted or quoted. That includes C1
//     controls and noncharacters, as the test suite expects.
//   - The domain is an IDNHostname.
//
// The local part is limited to 64 octets.
//
// Hostname ("hostname") is an RFC 1123 §2.1 host name.
//   - Labels are LDH: letters, digits and hyphens, 1-63 octets, with no
//     leading or trailing hyphen. A label may start with a digit.
//   - Labels are joined by ".". There is no empty label, so a trailing dot
//     fails.
//   - The name has at most 253 octets.
//
// A label that starts "xn--" (in any case) must be a valid A-label (RFC
// 5890 §2.3.2.1, RFC 5891 §5):
//   - its Punycode (RFC 3492) must decode;
//   - the result must hold a non-ASCII code point;
//   - the result must be a valid U-label, as for IDNHostname;
//   - the result must encode back to the same label.
//
// When any label is a right-to-left label, the RFC 5893 Bidi rule applies
// to every label. Deviation: other labels with "--" in the third and
// fourth positions pass, as RFC 1123 allows; IDNHostname rejects them.
//
// IDNHostname ("idn-hostname") is an RFC 5890 §2.3.2.3 internationalized
// host name.
//   - Labels are LDH labels, A-labels or U-labels.
//   - Labels are joined by ".", U+3002, U+FF0E or U+FF61.
//   - The name has at most 253 octets, each U-label counted in A-label
//     form (so a U-label may not encode to more than 63 octets).
//
// A U-label must meet these rules:
//   - every code point is PVALID under IDNA2008 (RFC 5892), or is CONTEXTJ
//     or CONTEXTO and satisfies its rule in RFC 5892 Appendix A (ZWNJ and
//     ZWJ after a virama or in a joining context, MIDDLE DOT between two
//     "l", KERAIA, GERESH, GERSHAYIM, KATAKANA MIDDLE DOT, and no mix of
//     Arabic-Indic digit sets);
//   - it does not start with a combining mark;
//   - it neither starts nor ends with "-", and has no "--" in the third
//     and fourth positions (RFC 5891 §4.2.3);
//   - in a Bidi domain name, every label meets the six conditions of the
//     Bidi rule (RFC 5893 §2), as RFC 5893 requires. Some libraries check
//     right-to-left labels only; here "1.xn--4db" fails.
//
// Deviations:
//   - The IDNA2008 derived property and the Bidi_Class, Joining_Type,
//     virama, mark and script data come from Unicode 14.0 (see
//     unicodeVersion). Tables in idna_tables.go are generated by
//     mktables.pl from the Unicode Character Database. Code points
//     assigned after Unicode 14.0 fail.
//   - ASCII letters are compared case-insensitively, as DNS does, so
//     "Bücher.example" passes. Non-ASCII capitals fail, being DISALLOWED.
//     There is no UTS #46 mapping.
//   - U-labels are not checked for Unicode Normalization Form C. That would
//     need the composition tables. The test suite also expects
//     "user@cafe\u0301.com" to pass as idn-email.
//   - An ASCII label with "--" in the third and fourth positions that is
//     not an A-label (an R-LDH label, RFC 5890 §2.3.1) fails.
//
// IPv4 ("ipv4") is the dotted-decimal form: four decimal octets 0-255, as
// RFC 3986 IPv4address and RFC 2673 §3.2. A leading zero fails ("01.2.3.4",
// which inet_aton would read as octal), as do shorthand forms, hex,
// surrounding space and a netmask.
//
// IPv6 ("ipv6") is an RFC 4291 §2.2 text form (RFC 3986 IPv6address):
//   - eight groups of 1-4 hex digits;
//   - or fewer groups with exactly one "::";
//   - optionally ending in a strict dotted-decimal IPv4 address, which
//     counts as two groups.
//
// A zone index ("%eth0"), a prefix length and brackets fail.
//
// UUID ("uuid") is the RFC 9562 (formerly RFC 4122) string form: 8-4-4-4-12
// hex digits in either case. Any version or variant passes. A "urn:uuid:"
// prefix or braces fail.
//
// JSONPointer ("json-pointer") is an RFC 6901 JSON Pointer, in its JSON
// string form: empty, or "/"-prefixed tokens in which every "~" is
// followed by "0" or "1".
//
// RelativeJSONPointer ("relative-json-pointer") follows
// draft-bhutton-relative-json-pointer-00, the draft JSON Schema 2020-12
// cites. It is a non-negative integer without leading zeros, an optional
// index manipulation ("+" or "-" and a positive integer, for example
// "0+1/a"), then "#" or a JSON Pointer.
//
// Regex ("regex") is an ECMA-262 (ES2025) RegExp Pattern, parsed with the
// u flag: UnicodeMode with NamedCaptureGroups, and without the Annex B
// extensions. So the following fail:
//   - identity escapes other than syntax characters and "/" ("\a");
//   - a lone "{", "}" or "]";
//   - a quantified assertion or lookaround;
//   - a backreference or \k<name> to a group that does not exist;
//   - an out-of-order class range or a class escape in a range;
//   - a \p{...} that names no property or value in ECMA-262's tables
//     (General_Category, Script and Script_Extensions values through
//     Unicode 16, and the binary properties);
//   - Python-only syntax such as "(?P<n>)".
//
// ES2025 modifiers ("(?i:...)") pass, and so does a group name used twice
// in different alternatives ("(?<y>a)|(?<y>b)"), as ES2025 allows; used
// twice where both groups could match ("(?<y>a)(?<y>b)"), it fails.
// Deviation: the v flag's class syntax is not accepted.
package format
