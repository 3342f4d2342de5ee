#!/usr/bin/perl
# strace_merge.pl - from an `strace -f` log, the lines `vmtrace dump`
# should print for it: calls split into "<unfinished ...>" and
# "<... NAME resumed>" joined at the resumed line (with the entry
# timestamp, padded to strace's column 40), except a vfork, joined where
# it started (its child's calls come after the call that made it, in the
# trace's order), calls vmtrace does not record dropped, signal and exit
# lines dropped.
use strict;
use warnings;

my %known = map { $_ => 1 } qw(brk mmap munmap mremap mprotect pkey_mprotect
	madvise mlock mlock2 munlock mlockall munlockall mseal shmat shmdt fork
	vfork clone clone3 exit exit_group execve execveat);
my %pending;
my @out;

sub line {
	my ($lead, $name, $call, $result) = @_;
	return undef unless $known{$name};
	my $head = "$lead$call";
	my $len = length $head;
	return $len < 40 ? $head . (' ' x (40 - $len)) . "= $result\n" : "$head = $result\n";
}

while (my $line = <>) {
	chomp $line;
	my ($pid, $sp, $rest) = $line =~ /^(\d+)(\s+)(.*)$/ or next;
	my $stamp = $rest =~ s/^(\d+\.\d+ )// ? $1 : '';
	my $lead = "$pid$sp$stamp";
	if ($rest =~ /^(\w+)\((.*) <unfinished \.\.\.>$/) {
		$pending{$pid} = [$lead, $1, "$1($2"];
		if ($1 eq 'vfork') {            # its place is kept
			push @out, '';
			$pending{$pid}[3] = $#out;
		}
	} elsif ($rest =~ /^<\.\.\. (\w+) resumed>(.*?)\)\s+= (.*)$/) {
		my $p = delete $pending{$pid} or next;
		my $l = line($p->[0], $1, "$p->[2]$2)", $3);
		next unless defined $l;
		if (defined $p->[3]) { $out[$p->[3]] = $l } else { push @out, $l }
	} elsif ($rest =~ /^(\w+)\(/) {
		push @out, "$line\n" if $known{$1};
	}
}
print @out;
