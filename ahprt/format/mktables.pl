#!/usr/bin/perl
# mktables.pl writes idna_tables.go: the IDNA2008 derived property
# (RFC 5892 §3, computed here from the Unicode Character Database that
# ships with Perl) and, for the code points a label may hold, the few
# character properties that RFC 5892 Appendix A and RFC 5893 consult.
#
#   perl mktables.pl > idna_tables.go && gofmt -w idna_tables.go
#
# Only Perl's core modules are used (Unicode::UCD, Unicode::Normalize).
use strict;
use warnings;
use Unicode::UCD qw(prop_invmap prop_invlist);
use Unicode::Normalize qw(NFKC);

my $MAX = 0x10FFFF;

# expand an inversion map into a per-code-point array
sub expand {
    my ($list, $map) = @_;
    my @a;
    for my $i (0 .. $#$list) {
        my $end = $i < $#$list ? $list->[$i + 1] - 1 : $MAX;
        my $v = $map->[$i];
        $a[$_] = $v for $list->[$i] .. $end;
    }
    return \@a;
}

sub set {
    my @l = prop_invlist(shift);
    my %h;
    for (my $i = 0; $i < @l; $i += 2) {
        my $end = $i + 1 < @l ? $l[$i + 1] - 1 : $MAX;
        $h{$_} = 1 for $l[$i] .. $end;
    }
    return \%h;
}

my $gc  = expand(prop_invmap("General_Category"));
my $bc  = expand(prop_invmap("Bidi_Class"));
my $jt  = expand(prop_invmap("Joining_Type"));
my $ccc = expand(prop_invmap("Canonical_Combining_Class"));
my $sc  = expand(prop_invmap("Script"));
my $dicp = set("Default_Ignorable_Code_Point");
my $ws   = set("White_Space");
my $nchar = set("Noncharacter_Code_Point");
my $jamo = set("Hangul_Syllable_Type=L");
$jamo->{$_} = 1 for keys %{ set("Hangul_Syllable_Type=V") }, keys %{ set("Hangul_Syllable_Type=T") };

# NFKC_Casefold as a per-code-point string
my ($cfl, $cfm, $cff) = prop_invmap("NFKC_Casefold");
die "unexpected NFKC_Casefold format $cff" unless $cff eq 'ale';
sub nfkc_cf {
    my $cp = shift;
    my ($lo, $hi) = (0, $#$cfl);
    while ($lo < $hi) {
        my $m = int(($lo + $hi + 1) / 2);
        if ($cfl->[$m] <= $cp) { $lo = $m } else { $hi = $m - 1 }
    }
    my $v = $cfm->[$lo];
    return join('', map { chr } @$v) if ref $v;
    return '' if $v eq '';
    return chr($cp) if $v eq '0';
    return chr($v + $cp - $cfl->[$lo]);
}

# RFC 5892 §2.6 Exceptions (F)
my %exc;
$exc{$_} = 'P' for 0xDF, 0x3C2, 0x6FD, 0x6FE, 0xF0B, 0x3007;
$exc{$_} = 'O' for 0xB7, 0x375, 0x5F3, 0x5F4, 0x30FB, 0x660 .. 0x669, 0x6F0 .. 0x6F9;
$exc{$_} = 'D' for 0x640, 0x7FA, 0x302E, 0x302F, 0x3031 .. 0x3035, 0x303B;

# derived property: P = PVALID, J = CONTEXTJ, O = CONTEXTO, D = DISALLOWED, U = UNASSIGNED
my @prop;
for my $cp (0 .. $MAX) {
    my $g = $gc->[$cp];
    my $p;
    if (exists $exc{$cp}) { $p = $exc{$cp} }
    elsif ($g eq 'Cn' && !$nchar->{$cp}) { $p = 'U' }
    elsif ($cp == 0x2D || ($cp >= 0x30 && $cp <= 0x39) || ($cp >= 0x61 && $cp <= 0x7A)) { $p = 'P' }
    elsif ($cp == 0x200C || $cp == 0x200D) { $p = 'J' }
    elsif ($g eq 'Cs') { $p = 'D' }
    elsif (NFKC(join '', map { nfkc_cf(ord) } split //, NFKC(chr $cp)) ne chr($cp)) { $p = 'D' }   # Unstable
    elsif ($dicp->{$cp} || $ws->{$cp} || $nchar->{$cp}) { $p = 'D' }                                # IgnorableProperties
    elsif (($cp >= 0x20D0 && $cp <= 0x20FF) || ($cp >= 0x1D100 && $cp <= 0x1D24F)) { $p = 'D' }    # IgnorableBlocks
    elsif ($jamo->{$cp}) { $p = 'D' }                                                                # OldHangulJamo
    elsif ($g =~ /^(Ll|Lu|Lo|Nd|Lm|Mn|Mc)$/) { $p = 'P' }                                            # LetterDigits
    else { $p = 'D' }
    $prop[$cp] = $p;
}

# inversion list of PVALID
my @inv;
my $in = 0;
for my $cp (0 .. $MAX) {
    my $v = $prop[$cp] eq 'P' ? 1 : 0;
    if ($v != $in) { push @inv, $cp; $in = $v }
}

# attributes of label code points (PVALID and CONTEXT*): bidi class,
# joining type, combining mark, virama, script group.
my %bidi = (L => 0, R => 1, AL => 2, AN => 3, EN => 4, ES => 5, CS => 6, ET => 7, ON => 8, BN => 9, NSM => 10);
my %join = (Non_Joining => 0, Transparent => 0, Dual_Joining => 1, Right_Joining => 2, Left_Joining => 3, Join_Causing => 4,
            U => 0, T => 5, D => 1, R => 2, L => 3, C => 4);
sub attr {
    my $cp = shift;
    my $b = $bidi{ $bc->[$cp] };
    die sprintf("bidi class %s at %X", $bc->[$cp], $cp) unless defined $b;
    my $j = $join{ $jt->[$cp] };
    die sprintf("joining type %s at %X", $jt->[$cp], $cp) unless defined $j;
    $j = 5 if $jt->[$cp] eq 'T' || $jt->[$cp] eq 'Transparent';
    my $m = $gc->[$cp] eq 'Mn' ? 1 : $gc->[$cp] eq 'Mc' ? 2 : 0;
    my $v = $ccc->[$cp] eq '9' || $ccc->[$cp] eq 'Virama' ? 1 : 0;
    my $s = $sc->[$cp];
    my $sg = $s eq 'Greek' ? 1 : $s eq 'Hebrew' ? 2 : ($s eq 'Hiragana' || $s eq 'Katakana' || $s eq 'Han') ? 3 : 0;
    return $b | $j << 4 | $m << 7 | $v << 9 | $sg << 10;
}
# ranges of equal non-zero attribute over label code points, merged across
# code points that can never be in a label (their attribute is never read)
my @ranges;    # [lo, hi, attr]
my $last;      # last label code point seen
for my $cp (0 .. $MAX) {
    next unless $prop[$cp] =~ /^[PJO]$/;
    my $a = attr($cp);
    if (@ranges && defined $last && $ranges[-1][1] == $last && $ranges[-1][2] == $a && $cp - $ranges[-1][0] <= 0xFFFF) {
        $ranges[-1][1] = $cp;
    } else {
        push @ranges, [$cp, $cp, $a];
    }
    $last = $cp;
}
@ranges = grep { $_->[2] != 0 } @ranges;

my $ver = Unicode::UCD::UnicodeVersion();
print "// Code generated by mktables.pl from the Unicode $ver Character Database; DO NOT EDIT.\n\n";
print "package format\n\n";
print "// unicodeVersion is the Unicode version of the IDNA tables.\n";
print "const unicodeVersion = \"$ver\"\n\n";
my @bmp = grep { $_ <= 0xFFFF } @inv;
my @sup = grep { $_ > 0xFFFF } @inv;
die "odd BMP list" if @bmp % 2;  # a range crossing U+10000 would need care
print "// pvalid16 and pvalid32 are the inversion list of the IDNA2008 derived\n";
print "// property PVALID (RFC 5892): code points from an even index up to the\n";
print "// next entry are PVALID.\n";
print "var pvalid16 = [...]uint16{\n";
print join('', map { sprintf("0x%04X,%s", $bmp[$_], ($_ % 8 == 7 ? "\n" : " ")) } 0 .. $#bmp), "\n}\n\n";
print "var pvalid32 = [...]uint32{\n";
print join('', map { sprintf("0x%05X,%s", $sup[$_], ($_ % 8 == 7 ? "\n" : " ")) } 0 .. $#sup), "\n}\n\n";
print "// labelAttrs holds, sorted, the label code points whose attribute word is\n";
print "// not zero (zero: bidi L, joining type U, not a mark, no script of\n";
print "// interest); see the attr* constants.\n";
print "var labelAttrs = [...]attrRange{\n";
for my $r (@ranges) {
    printf("{0x%05X, 0x%04X, 0x%03X},\n", $r->[0], $r->[1] - $r->[0], $r->[2]);
}
print "}\n";
