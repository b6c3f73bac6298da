package format

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Regex reports whether s is a regular expression pattern in the ECMA-262
// dialect (ES2025 Pattern, §22.2.1) parsed with the u flag (UnicodeMode and
// NamedCaptureGroups), the strict grammar without the Annex B extensions:
// no identity escapes other than syntax characters and "/", no lone "{",
// "}" or "]", no quantified lookarounds, every \k<name> and \N must name an
// existing group, class ranges must be in order and \p{...} must name a
// property or value ECMA-262 lists. Two groups may share a name only when
// they lie in different alternatives of some disjunction, so that they can
// never both participate (ES2025). Nesting depth is not limited; parsing is
// iterative.
func Regex(s string) bool {
	p := reParser{s: s}
	return p.parse()
}

type span struct{ lo, hi int }

type reParser struct {
	s      string
	i      int
	groups int  // capturing groups
	maxRef int  // largest \N seen
	named  bool // a named group or a \k<name> was seen
}

func (p *reParser) parse() bool {
	if !utf8.ValidString(p.s) {
		return false
	}
	s := p.s
	depth := 0
	var lookBuf [64]bool // per open group: is it a lookaround
	look := lookBuf[:0]
	for p.i < len(s) {
		c := s[p.i]
		switch c {
		case '|', '^', '$':
			p.i++
			continue
		case ')':
			if depth == 0 {
				return false
			}
			depth--
			wasLook := look[len(look)-1]
			look = look[:len(look)-1]
			p.i++
			if wasLook {
				continue // not quantifiable in UnicodeMode
			}
		case '(':
			p.i++
			isLook := false
			if p.i < len(s) && s[p.i] == '?' {
				p.i++
				if p.i >= len(s) {
					return false
				}
				switch s[p.i] {
				case ':':
					p.i++
				case '=', '!':
					p.i++
					isLook = true
				case '<':
					if p.i+1 < len(s) && (s[p.i+1] == '=' || s[p.i+1] == '!') {
						p.i += 2
						isLook = true
						break
					}
					p.i++
					if _, ok := p.groupName(); !ok {
						return false
					}
					p.named = true
					p.groups++
				default:
					if !p.modifiers() {
						return false
					}
				}
			} else {
				p.groups++
			}
			depth++
			look = append(look, isLook)
			continue
		case '\\':
			if p.i+1 < len(s) && (s[p.i+1] == 'b' || s[p.i+1] == 'B') {
				p.i += 2
				continue // assertion
			}
			p.i++
			if _, ok := p.escape(false); !ok {
				return false
			}
		case '[':
			if !p.class() {
				return false
			}
		case '.':
			p.i++
		case '*', '+', '?', '{', '}', ']':
			return false // nothing to repeat, or a lone brace/bracket
		default:
			_, n := utf8.DecodeRuneInString(s[p.i:])
			p.i += n
		}
		if !p.quantifier() {
			return false
		}
	}
	if depth != 0 || p.maxRef > p.groups {
		return false
	}
	return !p.named || p.namesOK()
}

// Kinds of names nextName finds.
const (
	nameNone = iota
	nameGroup
	nameRef
)

// nextName finds the next group name ("(?<name>") or named reference
// ("\k<name>") at or after i in an already parsed pattern, skipping
// escapes and character classes.
func (p *reParser) nextName(i int) (kind int, sp span, next int) {
	s := p.s
	for i < len(s) {
		switch s[i] {
		case '\\':
			if i+2 < len(s) && s[i+1] == 'k' && s[i+2] == '<' {
				q := reParser{s: s, i: i + 3}
				if nm, ok := q.groupName(); ok {
					return nameRef, nm, q.i
				}
			}
			i += 2
		case '[':
			for i++; i < len(s) && s[i] != ']'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			i++
		case '(':
			if i+3 < len(s) && s[i+1] == '?' && s[i+2] == '<' && s[i+3] != '=' && s[i+3] != '!' {
				q := reParser{s: s, i: i + 3}
				if nm, ok := q.groupName(); ok {
					return nameGroup, nm, q.i
				}
			}
			i++
		default:
			i++
		}
	}
	return nameNone, span{}, i
}

// namesOK checks that two groups share a name only when they cannot both
// participate in a match, and that every \k<name> names a group
// (anywhere in the pattern). A few names are compared pairwise without
// allocating; many go through a map.
func (p *reParser) namesOK() bool {
	var gbuf, rbuf [16]span
	groups, refs := gbuf[:0], rbuf[:0]
	for k, sp, i := p.nextName(0); k != nameNone; k, sp, i = p.nextName(i) {
		if k == nameGroup {
			groups = append(groups, sp)
		} else {
			refs = append(refs, sp)
		}
	}
	if len(groups) <= len(gbuf) && len(refs) <= len(rbuf) {
		for i, a := range groups {
			for _, b := range groups[:i] {
				if p.sameName(a, b) && !p.exclusive(b, a) {
					return false
				}
			}
		}
		for _, r := range refs {
			found := false
			for _, g := range groups {
				if p.sameName(r, g) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	seen := make(map[string][]span, len(groups))
	for _, g := range groups {
		n := p.nameString(g)
		for _, h := range seen[n] {
			if !p.exclusive(h, g) {
				return false
			}
		}
		seen[n] = append(seen[n], g)
	}
	for _, r := range refs {
		if len(seen[p.nameString(r)]) == 0 {
			return false
		}
	}
	return true
}

// exclusive reports whether the named groups whose names are at a and b
// (a first) lie in different alternatives of some disjunction: ES2025's
// MightBothParticipate is false for them. Between the two groups' "(" the
// scan tracks the nesting depth relative to the first; the disjunctions
// holding both groups are those at the lowest depth reached, and a "|" at
// that depth separates the groups.
func (p *reParser) exclusive(a, b span) bool {
	s := p.s
	// Each name follows "(?<".
	depth, low, split := 0, 0, false
	for i := a.lo - 3; i < b.lo-3; i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			for i++; i < len(s) && s[i] != ']'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
		case ')':
			if depth--; depth < low {
				low, split = depth, false
			}
		case '|':
			if depth == low {
				split = true
			}
		}
	}
	return split
}

// nameString returns a group name with its escapes decoded.
func (p *reParser) nameString(sp span) string {
	raw := p.s[sp.lo:sp.hi]
	if !strings.ContainsRune(raw, '\\') {
		return raw
	}
	var b strings.Builder
	for i := sp.lo; i < sp.hi; {
		var r rune
		r, i = p.nameRune(i)
		b.WriteRune(r)
	}
	return b.String()
}

// modifiers parses the ES2025 modifiers of "(?ims-ims:" after "(?".
func (p *reParser) modifiers() bool {
	s := p.s
	var seen [2]int
	side := 0
	for p.i < len(s) {
		c := s[p.i]
		p.i++
		switch c {
		case 'i', 'm', 's':
			bit := 1 << (c & 7) // distinct bits for i, m, s
			if (seen[0]|seen[1])&bit != 0 {
				return false
			}
			seen[side] |= bit
		case '-':
			if side == 1 {
				return false
			}
			side = 1
		case ':':
			return !(side == 1 && seen[0] == 0 && seen[1] == 0) && (side == 1 || seen[0] != 0)
		default:
			return false
		}
	}
	return false
}

// quantifier parses an optional quantifier at p.i.
func (p *reParser) quantifier() bool {
	s := p.s
	if p.i >= len(s) {
		return true
	}
	switch s[p.i] {
	case '*', '+', '?':
		p.i++
	case '{':
		p.i++
		lo, hi := p.i, p.i
		for hi < len(s) && isDigit(s[hi]) {
			hi++
		}
		if hi == lo || hi == len(s) {
			return false
		}
		p.i = hi
		if s[p.i] == ',' {
			p.i++
			lo2, hi2 := p.i, p.i
			for hi2 < len(s) && isDigit(s[hi2]) {
				hi2++
			}
			p.i = hi2
			if hi2 > lo2 && numLess(s[lo2:hi2], s[lo:hi]) {
				return false // {n,m} with m < n
			}
		}
		if p.i >= len(s) || s[p.i] != '}' {
			return false
		}
		p.i++
	default:
		return true
	}
	if p.i < len(s) && s[p.i] == '?' {
		p.i++
	}
	return true
}

// numLess compares two decimal digit strings by value.
func numLess(a, b string) bool {
	for len(a) > 1 && a[0] == '0' {
		a = a[1:]
	}
	for len(b) > 1 && b[0] == '0' {
		b = b[1:]
	}
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// escape parses an escape after "\" (AtomEscape, or ClassEscape when
// inClass). It returns the code point it stands for, or -1 for a character
// class escape (\d, \p{...}, ...).
func (p *reParser) escape(inClass bool) (rune, bool) {
	s := p.s
	if p.i >= len(s) {
		return 0, false
	}
	c := s[p.i]
	p.i++
	switch c {
	case 'd', 'D', 's', 'S', 'w', 'W':
		return -1, true
	case 'p', 'P':
		return -1, p.property()
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case 'c':
		if p.i < len(s) && isAlpha(s[p.i]) {
			p.i++
			return rune(s[p.i-1] % 32), true
		}
		return 0, false
	case '0':
		if p.i < len(s) && isDigit(s[p.i]) {
			return 0, false
		}
		return 0, true
	case 'x':
		if p.i+1 < len(s) && isHex(s[p.i]) && isHex(s[p.i+1]) {
			p.i += 2
			return rune(hexVal(s[p.i-2])<<4 | hexVal(s[p.i-1])), true
		}
		return 0, false
	case 'u':
		return p.unicodeEscape()
	case 'b':
		if inClass {
			return '\b', true
		}
		return 0, false
	case '-':
		return '-', inClass
	case 'k':
		if inClass || p.i >= len(s) || s[p.i] != '<' {
			return 0, false
		}
		p.i++
		_, ok := p.groupName()
		p.named = true
		return 0, ok
	case '^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/':
		return rune(c), true
	}
	if c >= '1' && c <= '9' && !inClass {
		n := int(c - '0')
		for p.i < len(s) && isDigit(s[p.i]) {
			if n < 1<<20 {
				n = n*10 + int(s[p.i]-'0')
			}
			p.i++
		}
		if n > p.maxRef {
			p.maxRef = n
		}
		return 0, true
	}
	return 0, false
}

func hexVal(c byte) int {
	switch {
	case c <= '9':
		return int(c - '0')
	case c >= 'a':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// unicodeEscape parses what follows "\u": {CodePoint} or Hex4Digits,
// joining a surrogate pair written as two escapes.
func (p *reParser) unicodeEscape() (rune, bool) {
	s := p.s
	if p.i < len(s) && s[p.i] == '{' {
		j := p.i + 1
		v := 0
		for j < len(s) && isHex(s[j]) {
			v = v<<4 | hexVal(s[j])
			if v > utf8.MaxRune {
				return 0, false
			}
			j++
		}
		if j == p.i+1 || j >= len(s) || s[j] != '}' {
			return 0, false
		}
		p.i = j + 1
		return rune(v), true
	}
	v, ok := p.hex4(p.i)
	if !ok {
		return 0, false
	}
	p.i += 4
	if v >= 0xD800 && v <= 0xDBFF && p.i+1 < len(s) && s[p.i] == '\\' && s[p.i+1] == 'u' {
		if t, ok := p.hex4(p.i + 2); ok && t >= 0xDC00 && t <= 0xDFFF {
			p.i += 6
			return rune((v-0xD800)<<10|(t-0xDC00)) + 0x10000, true
		}
	}
	return rune(v), true
}

func (p *reParser) hex4(i int) (int, bool) {
	s := p.s
	if i+4 > len(s) {
		return 0, false
	}
	v := 0
	for k := i; k < i+4; k++ {
		if !isHex(s[k]) {
			return 0, false
		}
		v = v<<4 | hexVal(s[k])
	}
	return v, true
}

// groupName parses RegExpIdentifierName ">" after "<" and returns the span
// of the name.
func (p *reParser) groupName() (span, bool) {
	s := p.s
	start := p.i
	first := true
	for p.i < len(s) && s[p.i] != '>' {
		var r rune
		if s[p.i] == '\\' {
			if p.i+1 >= len(s) || s[p.i+1] != 'u' {
				return span{}, false
			}
			p.i += 2
			var ok bool
			if r, ok = p.unicodeEscape(); !ok {
				return span{}, false
			}
		} else {
			var n int
			r, n = utf8.DecodeRuneInString(s[p.i:])
			p.i += n
		}
		if first && !isIDStart(r) || !first && !isIDContinue(r) {
			return span{}, false
		}
		first = false
	}
	if first || p.i >= len(s) {
		return span{}, false
	}
	p.i++ // '>'
	return span{start, p.i - 1}, true
}

func isIDStart(r rune) bool {
	if r == '$' || r == '_' {
		return true
	}
	if r < utf8.RuneSelf {
		return isAlpha(byte(r))
	}
	return (unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)) &&
		!unicode.Is(unicode.Pattern_Syntax, r) && !unicode.Is(unicode.Pattern_White_Space, r)
}

func isIDContinue(r rune) bool {
	if r == 0x200C || r == 0x200D || isIDStart(r) {
		return true
	}
	if r < utf8.RuneSelf {
		return isDigit(byte(r))
	}
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue) &&
		!unicode.Is(unicode.Pattern_Syntax, r) && !unicode.Is(unicode.Pattern_White_Space, r)
}

// sameName compares two group names by their code points (escapes decoded).
func (p *reParser) sameName(a, b span) bool {
	if p.s[a.lo:a.hi] == p.s[b.lo:b.hi] {
		return true
	}
	q := reParser{s: p.s}
	ai, bi := a.lo, b.lo
	for ai < a.hi && bi < b.hi {
		var ra, rb rune
		ra, ai = q.nameRune(ai)
		rb, bi = q.nameRune(bi)
		if ra != rb {
			return false
		}
	}
	return ai == a.hi && bi == b.hi
}

// nameRune decodes one code point of an already validated group name.
func (p *reParser) nameRune(i int) (rune, int) {
	if p.s[i] == '\\' {
		p.i = i + 2
		r, _ := p.unicodeEscape()
		return r, p.i
	}
	r, n := utf8.DecodeRuneInString(p.s[i:])
	return r, i + n
}

// class parses a CharacterClass starting at "[" (UnicodeMode ClassContents:
// ClassRanges).
func (p *reParser) class() bool {
	s := p.s
	p.i++ // '['
	if p.i < len(s) && s[p.i] == '^' {
		p.i++
	}
	for {
		if p.i >= len(s) {
			return false
		}
		if s[p.i] == ']' {
			p.i++
			return true
		}
		a, ok := p.classAtom()
		if !ok {
			return false
		}
		if p.i+1 < len(s) && s[p.i] == '-' && s[p.i+1] != ']' {
			p.i++
			b, ok := p.classAtom()
			if !ok || a < 0 || b < 0 || a > b {
				return false
			}
		}
	}
}

// classAtom returns the code point of a ClassAtom, or -1 for a class
// escape.
func (p *reParser) classAtom() (rune, bool) {
	s := p.s
	if s[p.i] == '\\' {
		p.i++
		return p.escape(true)
	}
	r, n := utf8.DecodeRuneInString(s[p.i:])
	p.i += n
	return r, true
}

// property parses "{" UnicodePropertyValueExpression "}" after \p or \P.
func (p *reParser) property() bool {
	s := p.s
	if p.i >= len(s) || s[p.i] != '{' {
		return false
	}
	p.i++
	start := p.i
	eq := -1
	for p.i < len(s) && s[p.i] != '}' {
		c := s[p.i]
		if c == '=' && eq < 0 {
			eq = p.i
		} else if !(isAlpha(c) || isDigit(c) || c == '_') {
			return false
		}
		p.i++
	}
	if p.i >= len(s) {
		return false
	}
	body := s[start:p.i]
	p.i++
	if eq < 0 {
		return inList(gcValues, body) || inList(binaryProps, body)
	}
	name, value := s[start:eq], s[eq+1:p.i-1]
	switch name {
	case "General_Category", "gc":
		return inList(gcValues, value)
	case "Script", "sc", "Script_Extensions", "scx":
		return inList(scriptValues, value)
	}
	return false
}

// inList reports whether name is one of the "|"-separated names of list
// (which starts and ends with "|").
func inList(list, name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i+len(name)+1 < len(list); i++ {
		if list[i] == '|' && list[i+1+len(name)] == '|' && list[i+1:i+1+len(name)] == name {
			return true
		}
	}
	return false
}

// Property names and values ECMA-262 accepts in \p{...} in UnicodeMode
// (its tables of binary properties, General_Category and Script values).
const (
	gcValues = "|Cased_Letter|LC|Close_Punctuation|Pe|Connector_Punctuation|Pc|Control|Cc|cntrl" +
		"|Currency_Symbol|Sc|Dash_Punctuation|Pd|Decimal_Number|Nd|digit|Enclosing_Mark|Me" +
		"|Final_Punctuation|Pf|Format|Cf|Initial_Punctuation|Pi|Letter|L|Letter_Number|Nl" +
		"|Line_Separator|Zl|Lowercase_Letter|Ll|Mark|M|Combining_Mark|Math_Symbol|Sm" +
		"|Modifier_Letter|Lm|Modifier_Symbol|Sk|Nonspacing_Mark|Mn|Number|N|Open_Punctuation|Ps" +
		"|Other|C|Other_Letter|Lo|Other_Number|No|Other_Punctuation|Po|Other_Symbol|So" +
		"|Paragraph_Separator|Zp|Private_Use|Co|Punctuation|P|punct|Separator|Z|Space_Separator|Zs" +
		"|Spacing_Mark|Mc|Surrogate|Cs|Symbol|S|Titlecase_Letter|Lt|Unassigned|Cn|Uppercase_Letter|Lu|"
	binaryProps = "|ASCII|ASCII_Hex_Digit|AHex|Alphabetic|Alpha|Any|Assigned|Bidi_Control|Bidi_C" +
		"|Bidi_Mirrored|Bidi_M|Case_Ignorable|CI|Cased|Changes_When_Casefolded|CWCF" +
		"|Changes_When_Casemapped|CWCM|Changes_When_Lowercased|CWL|Changes_When_NFKC_Casefolded|CWKCF" +
		"|Changes_When_Titlecased|CWT|Changes_When_Uppercased|CWU|Dash|Default_Ignorable_Code_Point|DI" +
		"|Deprecated|Dep|Diacritic|Dia|Emoji|Emoji_Component|EComp|Emoji_Modifier|EMod" +
		"|Emoji_Modifier_Base|EBase|Emoji_Presentation|EPres|Extended_Pictographic|ExtPict|Extender|Ext" +
		"|Grapheme_Base|Gr_Base|Grapheme_Extend|Gr_Ext|Hex_Digit|Hex|IDS_Binary_Operator|IDSB" +
		"|IDS_Trinary_Operator|IDST|ID_Continue|IDC|ID_Start|IDS|Ideographic|Ideo|Join_Control|Join_C" +
		"|Logical_Order_Exception|LOE|Lowercase|Lower|Math|Noncharacter_Code_Point|NChar" +
		"|Pattern_Syntax|Pat_Syn|Pattern_White_Space|Pat_WS|Quotation_Mark|QMark|Radical" +
		"|Regional_Indicator|RI|Sentence_Terminal|STerm|Soft_Dotted|SD|Terminal_Punctuation|Term" +
		"|Unified_Ideograph|UIdeo|Uppercase|Upper|Variation_Selector|VS|White_Space|space" +
		"|XID_Continue|XIDC|XID_Start|XIDS|"
	scriptValues = "|Adlm|Adlam|Aghb|Caucasian_Albanian|Ahom|Arab|Arabic|Armi|Imperial_Aramaic|Armn|Armenian" +
		"|Avst|Avestan|Bali|Balinese|Bamu|Bamum|Bass|Bassa_Vah|Batk|Batak|Beng|Bengali|Bhks|Bhaiksuki" +
		"|Bopo|Bopomofo|Brah|Brahmi|Brai|Braille|Bugi|Buginese|Buhd|Buhid|Cakm|Chakma|Cans" +
		"|Canadian_Aboriginal|Cari|Carian|Cham|Cher|Cherokee|Chrs|Chorasmian|Copt|Coptic|Qaac" +
		"|Cpmn|Cypro_Minoan|Cprt|Cypriot|Cyrl|Cyrillic|Deva|Devanagari|Diak|Dives_Akuru|Dogr|Dogra" +
		"|Dsrt|Deseret|Dupl|Duployan|Egyp|Egyptian_Hieroglyphs|Elba|Elbasan|Elym|Elymaic|Ethi|Ethiopic" +
		"|Gara|Garay|Geor|Georgian|Glag|Glagolitic|Gong|Gunjala_Gondi|Gonm|Masaram_Gondi|Goth|Gothic" +
		"|Gran|Grantha|Grek|Greek|Gujr|Gujarati|Gukh|Gurung_Khema|Guru|Gurmukhi|Hang|Hangul|Hani|Han" +
		"|Hano|Hanunoo|Hatr|Hatran|Hebr|Hebrew|Hira|Hiragana|Hluw|Anatolian_Hieroglyphs|Hmng" +
		"|Pahawh_Hmong|Hmnp|Nyiakeng_Puachue_Hmong|Hrkt|Katakana_Or_Hiragana|Hung|Old_Hungarian" +
		"|Ital|Old_Italic|Java|Javanese|Kali|Kayah_Li|Kana|Katakana|Kawi|Khar|Kharoshthi|Khmr|Khmer" +
		"|Khoj|Khojki|Kits|Khitan_Small_Script|Knda|Kannada|Krai|Kirat_Rai|Kthi|Kaithi|Lana|Tai_Tham" +
		"|Laoo|Lao|Latn|Latin|Lepc|Lepcha|Limb|Limbu|Lina|Linear_A|Linb|Linear_B|Lisu|Lyci|Lycian" +
		"|Lydi|Lydian|Mahj|Mahajani|Maka|Makasar|Mand|Mandaic|Mani|Manichaean|Marc|Marchen|Medf" +
		"|Medefaidrin|Mend|Mende_Kikakui|Merc|Meroitic_Cursive|Mero|Meroitic_Hieroglyphs|Mlym" +
		"|Malayalam|Modi|Mong|Mongolian|Mroo|Mro|Mtei|Meetei_Mayek|Mult|Multani|Mymr|Myanmar" +
		"|Nagm|Nag_Mundari|Nand|Nandinagari|Narb|Old_North_Arabian|Nbat|Nabataean|Newa|Nkoo|Nko" +
		"|Nshu|Nushu|Ogam|Ogham|Olck|Ol_Chiki|Onao|Ol_Onal|Orkh|Old_Turkic|Orya|Oriya|Osge|Osage" +
		"|Osma|Osmanya|Ougr|Old_Uyghur|Palm|Palmyrene|Pauc|Pau_Cin_Hau|Perm|Old_Permic|Phag|Phags_Pa" +
		"|Phli|Inscriptional_Pahlavi|Phlp|Psalter_Pahlavi|Phnx|Phoenician|Plrd|Miao|Prti" +
		"|Inscriptional_Parthian|Rjng|Rejang|Rohg|Hanifi_Rohingya|Runr|Runic|Samr|Samaritan|Sarb" +
		"|Old_South_Arabian|Saur|Saurashtra|Sgnw|SignWriting|Shaw|Shavian|Shrd|Sharada|Sidd|Siddham" +
		"|Sind|Khudawadi|Sinh|Sinhala|Sogd|Sogdian|Sogo|Old_Sogdian|Sora|Sora_Sompeng|Soyo|Soyombo" +
		"|Sund|Sundanese|Sunu|Sunuwar|Sylo|Syloti_Nagri|Syrc|Syriac|Tagb|Tagbanwa|Takr|Takri|Tale" +
		"|Tai_Le|Talu|New_Tai_Lue|Taml|Tamil|Tang|Tangut|Tavt|Tai_Viet|Telu|Telugu|Tfng|Tifinagh" +
		"|Tglg|Tagalog|Thaa|Thaana|Thai|Tibt|Tibetan|Tirh|Tirhuta|Tnsa|Tangsa|Todr|Todhri|Toto" +
		"|Tutg|Tulu_Tigalari|Ugar|Ugaritic|Vaii|Vai|Vith|Vithkuqi|Wara|Warang_Citi|Wcho|Wancho" +
		"|Xpeo|Old_Persian|Xsux|Cuneiform|Yezi|Yezidi|Yiii|Yi|Zanb|Zanabazar_Square|Zinh|Inherited" +
		"|Qaai|Zyyy|Common|Zzzz|Unknown|"
)
