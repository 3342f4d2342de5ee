/* frame_test.c - the serial framing between guest and host (vm_frame.h). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/tap.h"
#include "replay/vm/vm_frame.h"

static char *capture(size_t *len, void (*fill)(int fd))
{
	char path[] = "/tmp/vmrec-frame.XXXXXX";
	int fd = mkstemp(path);
	static char buf[1 << 16];

	fill(fd);
	*len = (size_t)pread(fd, buf, sizeof buf, 0);
	close(fd);
	unlink(path);
	return buf;
}

static void two_frames(int fd)
{
	write(fd, "kernel noise\n", 13);
	vm_frame_write(fd, "release", "6.1.0-57-cloud-amd64", 20);
	vm_frame_write(fd, "0/results.json", "{\"a\": 1}\nVMREC1 x 1 0\n", 22);
	vm_frame_write(fd, "end", "", 0);
}

int main(void)
{
	struct vm_frame fr[8];
	char err[128];
	size_t len;
	char *buf = capture(&len, two_frames);

	/* the check value of CRC-32/IEEE */
	is_int(vm_crc32(0, "123456789", 9), 0xcbf43926, "crc32 check value");
	is_int(vm_crc32(vm_crc32(0, "1234", 4), "56789", 5), 0xcbf43926,
	       "crc32 continues over pieces");

	int n = vm_frames_parse(buf, len, fr, 8, err, sizeof err);
	is_int(n, 3, "three frames, noise before them skipped");
	is_str(fr[0].name, "release", "first frame name");
	ok(fr[0].len == 20 && !memcmp(fr[0].data, "6.1.0-57-cloud-amd64", 20),
	   "first frame data");
	ok(fr[1].len == 22 && !memcmp(fr[1].data, "{\"a\": 1}\nVMREC1 x 1 0\n", 22),
	   "a header-like line inside data is data");
	ok(vm_frame_find(fr, n, "0/results.json") == &fr[1], "find by name");
	ok(vm_frame_find(fr, n, "nope") == NULL, "find of a missing name");

	char *copy = malloc(len);
	memcpy(copy, buf, len);
	copy[strstr(buf, "{\"a\"") - buf + 2] ^= 1;
	is_int(vm_frames_parse(copy, len, fr, 8, err, sizeof err), -1, "corrupt byte detected");
	is_str(err, "frame '0/results.json' has a bad checksum", "corrupt byte message");

	size_t cut = (size_t)(strstr(buf, "{\"a\"") - buf) + 5;
	is_int(vm_frames_parse(buf, cut, fr, 8, err, sizeof err), -1, "cut transfer detected");
	is_str(err, "frame '0/results.json' cut short (5 of 22 bytes)", "cut transfer message");

	size_t noend = (size_t)(strstr(buf, "VMREC1 end") - buf);
	is_int(vm_frames_parse(buf, noend, fr, 8, err, sizeof err), -1, "missing end detected");
	is_str(err, "transfer ended after 2 frames without an end frame", "missing end message");

	is_int(vm_frames_parse("boot log only\n", 14, fr, 8, err, sizeof err), -1, "nothing sent");
	is_str(err, "no results came back", "nothing sent message");
	free(copy);
	return done_testing();
}
