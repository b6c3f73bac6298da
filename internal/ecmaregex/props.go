package ecmaregex

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// This file holds the Unicode property names and values that ECMA-262
// accepts in \p{…} and \P{…} with the u flag (tables "Non-binary Unicode
// property aliases", "Value aliases and canonical values for
// General_Category", "Value aliases and canonical values for Script and
// Script_Extensions" and "Binary Unicode property aliases"), and how each
// one is expressed for RE2. Names are matched exactly (case-sensitive, no
// loose matching), as ECMA-262 requires.

// gcValues maps every General_Category value spelling to its short code.
var gcValues = map[string]string{}

func init() {
	for _, row := range []string{
		"LC Cased_Letter",
		"Pe Close_Punctuation",
		"Pc Connector_Punctuation",
		"Cc Control cntrl",
		"Sc Currency_Symbol",
		"Pd Dash_Punctuation",
		"Nd Decimal_Number digit",
		"Me Enclosing_Mark",
		"Pf Final_Punctuation",
		"Cf Format",
		"Pi Initial_Punctuation",
		"L Letter",
		"Nl Letter_Number",
		"Zl Line_Separator",
		"Ll Lowercase_Letter",
		"M Mark Combining_Mark",
		"Sm Math_Symbol",
		"Lm Modifier_Letter",
		"Sk Modifier_Symbol",
		"Mn Nonspacing_Mark",
		"N Number",
		"Ps Open_Punctuation",
		"C Other",
		"Lo Other_Letter",
		"No Other_Number",
		"Po Other_Punctuation",
		"So Other_Symbol",
		"Zp Paragraph_Separator",
		"Co Private_Use",
		"P Punctuation punct",
		"Z Separator",
		"Zs Space_Separator",
		"Mc Spacing_Mark",
		"Cs Surrogate",
		"S Symbol",
		"Lt Titlecase_Letter",
		"Cn Unassigned",
		"Lu Uppercase_Letter",
	} {
		f := strings.Fields(row)
		for _, n := range f {
			gcValues[n] = f[0]
		}
	}
}

// scriptValues maps every Script value spelling to its long name.
var scriptValues = map[string]string{}

func init() {
	for _, row := range []string{
		"Adlam Adlm", "Ahom Ahom", "Anatolian_Hieroglyphs Hluw", "Arabic Arab",
		"Armenian Armn", "Avestan Avst", "Balinese Bali", "Bamum Bamu",
		"Bassa_Vah Bass", "Batak Batk", "Bengali Beng", "Bhaiksuki Bhks",
		"Bopomofo Bopo", "Brahmi Brah", "Braille Brai", "Buginese Bugi",
		"Buhid Buhd", "Canadian_Aboriginal Cans", "Carian Cari",
		"Caucasian_Albanian Aghb", "Chakma Cakm", "Cham Cham", "Cherokee Cher",
		"Chorasmian Chrs", "Common Zyyy", "Coptic Copt Qaac", "Cuneiform Xsux",
		"Cypriot Cprt", "Cypro_Minoan Cpmn", "Cyrillic Cyrl", "Deseret Dsrt",
		"Devanagari Deva", "Dives_Akuru Diak", "Dogra Dogr", "Duployan Dupl",
		"Egyptian_Hieroglyphs Egyp", "Elbasan Elba", "Elymaic Elym",
		"Ethiopic Ethi", "Garay Gara", "Georgian Geor", "Glagolitic Glag",
		"Gothic Goth", "Grantha Gran", "Greek Grek", "Gujarati Gujr",
		"Gunjala_Gondi Gong", "Gurmukhi Guru", "Gurung_Khema Gukh", "Han Hani",
		"Hangul Hang", "Hanifi_Rohingya Rohg", "Hanunoo Hano", "Hatran Hatr",
		"Hebrew Hebr", "Hiragana Hira", "Imperial_Aramaic Armi",
		"Inherited Zinh Qaai", "Inscriptional_Pahlavi Phli",
		"Inscriptional_Parthian Prti", "Javanese Java", "Kaithi Kthi",
		"Kannada Knda", "Katakana Kana", "Kawi Kawi", "Kayah_Li Kali", "Kharoshthi Khar",
		"Khitan_Small_Script Kits", "Khmer Khmr", "Khojki Khoj",
		"Khudawadi Sind", "Kirat_Rai Krai", "Lao Laoo", "Latin Latn",
		"Lepcha Lepc", "Limbu Limb", "Linear_A Lina", "Linear_B Linb",
		"Lisu Lisu", "Lycian Lyci", "Lydian Lydi", "Mahajani Mahj",
		"Makasar Maka", "Malayalam Mlym", "Mandaic Mand", "Manichaean Mani",
		"Marchen Marc", "Masaram_Gondi Gonm", "Medefaidrin Medf",
		"Meetei_Mayek Mtei", "Mende_Kikakui Mend", "Meroitic_Cursive Merc",
		"Meroitic_Hieroglyphs Mero", "Miao Plrd", "Modi Modi",
		"Mongolian Mong", "Mro Mroo", "Multani Mult", "Myanmar Mymr",
		"Nabataean Nbat", "Nag_Mundari Nagm", "Nandinagari Nand",
		"New_Tai_Lue Talu", "Newa Newa", "Nko Nkoo", "Nushu Nshu",
		"Nyiakeng_Puachue_Hmong Hmnp", "Ogham Ogam", "Ol_Chiki Olck",
		"Ol_Onal Onao", "Old_Hungarian Hung", "Old_Italic Ital",
		"Old_North_Arabian Narb", "Old_Permic Perm", "Old_Persian Xpeo",
		"Old_Sogdian Sogo", "Old_South_Arabian Sarb", "Old_Turkic Orkh",
		"Old_Uyghur Ougr", "Oriya Orya", "Osage Osge", "Osmanya Osma",
		"Pahawh_Hmong Hmng", "Palmyrene Palm", "Pau_Cin_Hau Pauc",
		"Phags_Pa Phag", "Phoenician Phnx", "Psalter_Pahlavi Phlp",
		"Rejang Rjng", "Runic Runr", "Samaritan Samr", "Saurashtra Saur",
		"Sharada Shrd", "Shavian Shaw", "Siddham Sidd", "SignWriting Sgnw",
		"Sinhala Sinh", "Sogdian Sogd", "Sora_Sompeng Sora", "Soyombo Soyo",
		"Sundanese Sund", "Sunuwar Sunu", "Syloti_Nagri Sylo", "Syriac Syrc",
		"Tagalog Tglg", "Tagbanwa Tagb", "Tai_Le Tale", "Tai_Tham Lana",
		"Tai_Viet Tavt", "Takri Takr", "Tamil Taml", "Tangsa Tnsa",
		"Tangut Tang", "Telugu Telu", "Thaana Thaa", "Thai Thai",
		"Tibetan Tibt", "Tifinagh Tfng", "Tirhuta Tirh", "Todhri Todr",
		"Toto Toto", "Tulu_Tigalari Tutg", "Ugaritic Ugar", "Unknown Zzzz",
		"Vai Vaii", "Vithkuqi Vith", "Wancho Wcho", "Warang_Citi Wara",
		"Yezidi Yezi", "Yi Yiii", "Zanabazar_Square Zanb",
	} {
		f := strings.Fields(row)
		for _, n := range f {
			scriptValues[n] = f[0]
		}
	}
}

// binaryProps maps every binary property spelling to its long name.
var binaryProps = map[string]string{}

func init() {
	for _, row := range []string{
		"ASCII", "ASCII_Hex_Digit AHex", "Alphabetic Alpha", "Any", "Assigned",
		"Bidi_Control Bidi_C", "Bidi_Mirrored Bidi_M", "Case_Ignorable CI",
		"Cased", "Changes_When_Casefolded CWCF", "Changes_When_Casemapped CWCM",
		"Changes_When_Lowercased CWL", "Changes_When_NFKC_Casefolded CWKCF",
		"Changes_When_Titlecased CWT", "Changes_When_Uppercased CWU", "Dash",
		"Default_Ignorable_Code_Point DI", "Deprecated Dep", "Diacritic Dia",
		"Emoji", "Emoji_Component EComp", "Emoji_Modifier EMod",
		"Emoji_Modifier_Base EBase", "Emoji_Presentation EPres",
		"Extended_Pictographic ExtPict", "Extender Ext", "Grapheme_Base Gr_Base",
		"Grapheme_Extend Gr_Ext", "Hex_Digit Hex", "IDS_Binary_Operator IDSB",
		"IDS_Trinary_Operator IDST", "ID_Continue IDC", "ID_Start IDS",
		"Ideographic Ideo", "Join_Control Join_C", "Logical_Order_Exception LOE",
		"Lowercase Lower", "Math", "Noncharacter_Code_Point NChar",
		"Pattern_Syntax Pat_Syn", "Pattern_White_Space Pat_WS",
		"Quotation_Mark QMark", "Radical", "Regional_Indicator RI",
		"Sentence_Terminal STerm", "Soft_Dotted SD", "Terminal_Punctuation Term",
		"Unified_Ideograph UIdeo", "Uppercase Upper", "Variation_Selector VS",
		"White_Space space", "XID_Continue XIDC", "XID_Start XIDS",
	} {
		f := strings.Fields(row)
		for _, n := range f {
			binaryProps[n] = f[0]
		}
	}
}

// propKind tells which table a property escape refers to.
type propKind int

const (
	propGC propKind = iota
	propScript
	propScriptExt
	propBinary
)

// propRef is a resolved \p{…} or \P{…}.
type propRef struct {
	kind  propKind
	value string // short gc code, long script name or long binary property name
	neg   bool   // \P
	src   string // the text between the braces
}

// resolveProperty checks a UnicodePropertyValueExpression and resolves it.
// It returns "" as message on success.
func resolveProperty(expr string) (propRef, string) {
	if name, value, ok := strings.Cut(expr, "="); ok {
		switch name {
		case "General_Category", "gc":
			if v, ok := gcValues[value]; ok {
				return propRef{kind: propGC, value: v, src: expr}, ""
			}
			return propRef{}, "unknown General_Category value " + quote(value)
		case "Script", "sc", "Script_Extensions", "scx":
			v, ok := scriptValues[value]
			if !ok {
				return propRef{}, "unknown Script value " + quote(value)
			}
			k := propScript
			if name == "Script_Extensions" || name == "scx" {
				k = propScriptExt
			}
			return propRef{kind: k, value: v, src: expr}, ""
		}
		return propRef{}, "unknown Unicode property name " + quote(name) +
			" (ECMA-262 allows General_Category, gc, Script, sc, Script_Extensions, scx)"
	}
	if v, ok := gcValues[expr]; ok {
		return propRef{kind: propGC, value: v, src: expr}, ""
	}
	if v, ok := binaryProps[expr]; ok {
		return propRef{kind: propBinary, value: v, src: expr}, ""
	}
	return propRef{}, "unknown Unicode property or General_Category value " + quote(expr)
}

func quote(s string) string { return "\"" + s + "\"" }

// piece is the translation of one set-valued construct: the union of the
// RE2 Unicode classes names (written \p{name}) and the code points of set,
// or, when neg is true, the complement of that union.
type piece struct {
	names []string
	set   runeSet
	neg   bool
}

// materialize returns the exact code point set of p (ignoring p.neg).
func (p piece) base() runeSet {
	sets := []runeSet{p.set}
	for _, n := range p.names {
		sets = append(sets, re2Table(n))
	}
	return union(sets...)
}

// re2Table returns the code points of the RE2 class \p{name}; name is a
// short General_Category code or a script name in unicode.Scripts.
func re2Table(name string) runeSet {
	tablesMu.Lock()
	defer tablesMu.Unlock()
	if s, ok := tableCache[name]; ok {
		return s
	}
	t := unicode.Categories[name]
	if t == nil {
		t = unicode.Scripts[name]
	}
	s := fromTable(t)
	tableCache[name] = s
	return s
}

var (
	tablesMu   sync.Mutex
	tableCache = map[string]runeSet{}
)

// assignedCats are General_Category classes whose union is every assigned
// code point (plus surrogates and private use): the complement is Cn.
var assignedCats = []string{"L", "M", "N", "P", "S", "Z", "Cc", "Cf", "Co", "Cs"}

// propPiece expresses a property escape for RE2. msg is non-empty when the
// property exists in ECMA-262 but cannot be expressed.
func propPiece(p propRef) (piece, string) {
	var pc piece
	switch p.kind {
	case propGC:
		switch p.value {
		case "LC":
			pc = piece{names: []string{"Lu", "Ll", "Lt"}}
		case "Cn":
			// Older Go releases lack Cn in unicode.Categories; write it as
			// the complement of every assigned category.
			pc = piece{names: assignedCats, neg: true}
		case "C":
			// Other = Cc | Cf | Cn | Co | Cs: everything that is not
			// L, M, N, P, S or Z.
			pc = piece{names: []string{"L", "M", "N", "P", "S", "Z"}, neg: true}
		default:
			pc = piece{names: []string{p.value}}
		}
	case propScript:
		switch p.value {
		case "Unknown":
			pc = piece{set: unknownScript()}
		default:
			if unicode.Scripts[p.value] == nil {
				return piece{}, "Script " + quote(p.value) + " is not in Go's Unicode " + unicode.Version + " tables"
			}
			if re2Knows(p.value) {
				pc = piece{names: []string{p.value}}
			} else {
				pc = piece{set: re2Table(p.value)}
			}
		}
	case propScriptExt:
		return piece{}, "Script_Extensions (scx) is not available in Go's regexp or unicode tables"
	case propBinary:
		s, ok := binarySet(p.value)
		if !ok {
			return piece{}, "binary Unicode property " + quote(p.value) + " is not available in Go's unicode tables"
		}
		pc = piece{set: s}
	}
	if p.neg {
		pc.neg = !pc.neg
	}
	return pc, ""
}

// re2Knows reports whether \p{name} can be left to RE2 for a script name.
// Go's regexp looks names up after folding them to one capitalised word
// (Go 1.26 drops underscores and lowercases the rest), so a multi-word
// script such as Old_Italic or SignWriting is not found by every Go
// release; those are written out as ranges instead. Single-word names like
// Greek, Latin and Han work in every release.
func re2Knows(name string) bool {
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		if name[i] < 'a' || name[i] > 'z' {
			return false
		}
	}
	_, err := regexp.Compile(`\p{` + name + `}`)
	return err == nil
}

func unknownScript() runeSet {
	names := make([]string, 0, len(unicode.Scripts))
	for n := range unicode.Scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	var sets []runeSet
	for _, n := range names {
		sets = append(sets, re2Table(n))
	}
	return union(sets...).complement()
}

func tbl(name string) runeSet {
	if t := unicode.Properties[name]; t != nil {
		return fromTable(t)
	}
	return re2Table(name)
}

// binarySet computes a binary property from Go's unicode tables. Properties
// Go has directly are used as they are; a few derived core properties are
// built from their definitions in Unicode's DerivedCoreProperties.txt and
// UAX #31. The rest (Bidi_Mirrored, Case_Ignorable, Changes_When_*,
// Default_Ignorable_Code_Point, Emoji*, Extended_Pictographic, XID_*) need
// data Go does not ship, so they are refused.
func binarySet(name string) (runeSet, bool) {
	switch name {
	case "ASCII":
		return single(0, 0x7F), true
	case "Any":
		return allSet, true
	case "Assigned":
		return union(re2Table("Cn")).complement(), true
	case "ASCII_Hex_Digit", "Bidi_Control", "Dash", "Deprecated", "Diacritic",
		"Extender", "Hex_Digit", "IDS_Binary_Operator", "IDS_Trinary_Operator",
		"Ideographic", "Join_Control", "Logical_Order_Exception",
		"Noncharacter_Code_Point", "Pattern_Syntax", "Pattern_White_Space",
		"Quotation_Mark", "Radical", "Regional_Indicator", "Sentence_Terminal",
		"Soft_Dotted", "Terminal_Punctuation", "Unified_Ideograph",
		"Variation_Selector", "White_Space":
		if unicode.Properties[name] == nil {
			return nil, false
		}
		return tbl(name), true
	case "Lowercase":
		return union(tbl("Ll"), tbl("Other_Lowercase")), true
	case "Uppercase":
		return union(tbl("Lu"), tbl("Other_Uppercase")), true
	case "Cased":
		return union(tbl("Ll"), tbl("Other_Lowercase"), tbl("Lu"), tbl("Other_Uppercase"), tbl("Lt")), true
	case "Alphabetic":
		return union(tbl("Ll"), tbl("Other_Lowercase"), tbl("Lu"), tbl("Other_Uppercase"),
			tbl("Lt"), tbl("Lm"), tbl("Lo"), tbl("Nl"), tbl("Other_Alphabetic")), true
	case "Math":
		return union(tbl("Sm"), tbl("Other_Math")), true
	case "ID_Start":
		return idStart(), true
	case "ID_Continue":
		return idContinue(), true
	case "Grapheme_Extend":
		return union(tbl("Me"), tbl("Mn"), tbl("Other_Grapheme_Extend")), true
	case "Grapheme_Base":
		return minus(allSet, union(tbl("Cc"), tbl("Cf"), tbl("Cs"), tbl("Co"), tbl("Cn"),
			tbl("Zl"), tbl("Zp"), tbl("Me"), tbl("Mn"), tbl("Other_Grapheme_Extend"))), true
	}
	return nil, false
}

var (
	idOnce             sync.Once
	idStartSet, idCont runeSet
)

func initID() {
	idOnce.Do(func() {
		excl := union(tbl("Pattern_Syntax"), tbl("Pattern_White_Space"))
		idStartSet = minus(union(tbl("Lu"), tbl("Ll"), tbl("Lt"), tbl("Lm"), tbl("Lo"),
			tbl("Nl"), tbl("Other_ID_Start")), excl)
		idCont = minus(union(idStartSet, tbl("Mn"), tbl("Mc"), tbl("Nd"), tbl("Pc"),
			tbl("Other_ID_Continue")), excl)
	})
}

// idStart is Unicode ID_Start (UAX #31).
func idStart() runeSet { initID(); return idStartSet }

// idContinue is Unicode ID_Continue (UAX #31).
func idContinue() runeSet { initID(); return idCont }
