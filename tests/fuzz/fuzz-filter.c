/*
 * fuzz-filter -- libFuzzer target: pcap_compile() of filters that use
 * the "erspan" primitive, on Ethernet and on the ERSPAN link-layer type
 * (whose programs relocate the whole expression to the inner frame),
 * with the optimizer on and off.
 *
 * Input: byte 0 chooses the link-layer type (bit 0), the optimizer
 * (bit 1) and whether "erspan " is put in front of the expression (bit
 * 2); the rest is the expression.  A program that compiles must pass
 * bpf_validate() as the kernel would check it.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "fuzz-common.h"

/* At most this long an expression: longer ones only cost time. */
#define	FUZZ_MAX_EXPR	1024

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char expr[sizeof("erspan ") + FUZZ_MAX_EXPR];
	struct bpf_program prog;
	size_t n, len;
	pcap_t *p;

	if (size < 1)
		return (0);
	len = 0;
	if (data[0] & 4) {
		memcpy(expr, "erspan ", 7);
		len = 7;
	}
	n = size - 1 > FUZZ_MAX_EXPR ? FUZZ_MAX_EXPR : size - 1;
	memcpy(expr + len, data + 1, n);
	expr[len + n] = '\0';

	p = pcap_open_dead((data[0] & 1) ? DLT_ERSPAN : DLT_EN10MB, 65535);
	if (p == NULL)
		return (0);
	if (pcap_compile(p, &prog, expr, (data[0] & 2) != 0,
	    PCAP_NETMASK_UNKNOWN) == 0) {
		if (!bpf_validate(prog.bf_insns, (int)prog.bf_len))
			abort();
		pcap_freecode(&prog);
	}
	pcap_close(p);
	return (0);
}
