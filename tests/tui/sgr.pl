#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# tests/tui/sgr.pl - the colours and attributes a screen shows at a text:
# reads `tmux capture-pane -e -p` (text with SGR escape sequences) on
# stdin, follows the SGR state cell by cell (across lines, as tmux writes
# it), and prints for each TEXT argument the state of the first cell of
# its first occurrence, as
#
#     fg=N bg=N bold dim italic underline reverse
#
# colours as indexes 0..255 (30-37 and 90-97 become 0-7 and 8-15; 38;5;N
# is N) or "default", attributes only when set; "none" when TEXT is not
# on the screen. With --colours it prints instead every colour used
# anywhere on the screen ("fg=N" and "bg=N", sorted, one a line): none
# for a screen without colours.
use strict;
use warnings;

use Encode qw(decode);

@ARGV = map { decode('UTF-8', $_) } @ARGV;
binmode STDIN, ':encoding(UTF-8)';
binmode STDOUT, ':encoding(UTF-8)';

my %st = (fg => 'default', bg => 'default');
my @attrs = qw(bold dim italic underline reverse);
my @lines;		# [ [char, state string], ... ] per line
my %colours;

sub state_str {
	my $s = "fg=$st{fg} bg=$st{bg}";
	for my $a (@attrs) {
		$s .= " $a" if $st{$a};
	}
	return $s;
}

sub sgr {
	my @p = split /;/, ($_[0] eq '' ? '0' : $_[0]);
	while (@p) {
		my $c = shift @p;
		$c =~ s/:.*//;		# sub-parameters (4:3): the main one
		$c = 0 if $c eq '';
		if ($c == 0) {
			%st = (fg => 'default', bg => 'default');
		} elsif ($c == 1) { $st{bold} = 1 }
		elsif ($c == 2) { $st{dim} = 1 }
		elsif ($c == 3) { $st{italic} = 1 }
		elsif ($c == 4) { $st{underline} = 1 }
		elsif ($c == 7) { $st{reverse} = 1 }
		elsif ($c == 22) { delete @st{qw(bold dim)} }
		elsif ($c == 23) { delete $st{italic} }
		elsif ($c == 24) { delete $st{underline} }
		elsif ($c == 27) { delete $st{reverse} }
		elsif ($c >= 30 && $c <= 37) { $st{fg} = $c - 30 }
		elsif ($c >= 40 && $c <= 47) { $st{bg} = $c - 40 }
		elsif ($c >= 90 && $c <= 97) { $st{fg} = $c - 90 + 8 }
		elsif ($c >= 100 && $c <= 107) { $st{bg} = $c - 100 + 8 }
		elsif ($c == 39) { $st{fg} = 'default' }
		elsif ($c == 49) { $st{bg} = 'default' }
		elsif ($c == 38 || $c == 48) {
			my $k = $c == 38 ? 'fg' : 'bg';
			my $mode = shift @p // 5;
			if ($mode == 5) {
				$st{$k} = shift @p // 0;
			} else {
				my @rgb = splice @p, 0, 3;
				$st{$k} = 'rgb' . join(',', @rgb);
			}
		}
	}
}

while (my $line = <STDIN>) {
	chomp $line;
	my @cells;
	while (length $line) {
		if ($line =~ s/^\e\[([0-9;:]*)m//) {
			sgr($1);
		} elsif ($line =~ s/^\e[^a-zA-Z]*[a-zA-Z]//) {
			# another sequence: not a cell
		} else {
			my $ch = substr($line, 0, 1, '');
			push @cells, [ $ch, state_str() ];
			$colours{"fg=$st{fg}"} = 1 if $st{fg} ne 'default';
			$colours{"bg=$st{bg}"} = 1 if $st{bg} ne 'default';
		}
	}
	push @lines, \@cells;
}

if (@ARGV && $ARGV[0] eq '--colours') {
	print "$_\n" for sort keys %colours;
	exit 0;
}
for my $text (@ARGV) {
	my $found = 'none';
	for my $cells (@lines) {
		my $plain = join '', map { $_->[0] } @$cells;
		my $i = index $plain, $text;
		if ($i >= 0) {
			$found = $cells->[$i][1];
			last;
		}
	}
	print "$found\n";
}
