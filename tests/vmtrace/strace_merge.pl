#!/usr/bin/perl
# strace_merge.pl - from an `strace -f` log, the lines `vmtrace dump`
# should print for it: calls split into "<unfinished ...>" and
# "<... NAME resumed>" joined at the resumed line (with the entry
# timestamp, padded to strace's column 40), calls vmtrace does not record
# dropped, signal and exit lines dropped.
use strict;
use warnings;

my %known = map { $_ => 1 } qw(brk mmap munmap mremap mprotect pkey_mprotect
	madvise mlock mlock2 munlock mlockall munlockall mseal shmat shmdt fork
	vfork clone clone3 exit exit_group execve execveat);
my %pending;

sub emit {
	my ($lead, $name, $call, $result) = @_;
	return unless $known{$name};
	my $head = "$lead$call";
	my $len = length $head;
	print $len < 40 ? $head . (' ' x (40 - $len)) . "= $result\n" : "$head = $result\n";
}

while (my $line = <>) {
	chomp $line;
	my ($pid, $sp, $rest) = $line =~ /^(\d+)(\s+)(.*)$/ or next;
	my $stamp = $rest =~ s/^(\d+\.\d+ )// ? $1 : '';
	my $lead = "$pid$sp$stamp";
	if ($rest =~ /^(\w+)\((.*) <unfinished \.\.\.>$/) {
		$pending{$pid} = [$lead, $1, "$1($2"];
	} elsif ($rest =~ /^<\.\.\. (\w+) resumed>(.*?)\)\s+= (.*)$/) {
		my $p = delete $pending{$pid} or next;
		emit($p->[0], $1, "$p->[2]$2)", $3);
	} elsif ($rest =~ /^(\w+)\(/) {
		print "$line\n" if $known{$1};
	}
}
