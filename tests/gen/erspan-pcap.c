/*
 * erspan-pcap -- write a classic pcap file of crafted ERSPAN frames.
 *
 * usage: erspan-pcap [-l] OUT.pcap SPEC...
 *
 * Each SPEC is a comma-separated list of tokens describing one frame
 * (or "n=COUNT" copies of it); "variants" stands for a fixed set of
 * valid variants, "broken" for a fixed set of frames that are not
 * ERSPAN by the rules of pcap-erspan.h, and "matrix" for both.
 * Frames are numbered from 1
 * across the whole file; frame N's inner payload is "sluice-N".
 * -l prints one line per frame: number, outer length, spec.
 *
 * Tokens:
 *   t1 t2 t3          ERSPAN type (default t2)
 *   v6 opt=N          outer IPv6, or IPv4 with N option bytes
 *   tags=N vid=N      outer 802.1Q/802.1ad tags (0-2) and their VLAN ID
 *   csum key seq      GRE C, K bits; S for type III
 *   sid=N vlan=N cos=N en=N tbit index=N ts=N sgt=N hwid=N d gra=N
 *   ft=N o pid=N      type III frame type, platform subheader and its ID
 *   udp port=N        inner UDP instead of TCP; destination port (80)
 *   pad=N cut=N       pad the outer frame to N bytes; keep only N bytes
 *   badver routing grever frag fragoff shortlen badipver notgre
 *   otherproto        deliberate breakage (see erspan-craft.h)
 *   n=N               repeat the frame N times (1-10000)
 *
 * Exit status: 0 on success, 1 on a bad spec or an I/O error.
 */

#define _POSIX_C_SOURCE 200809L	/* strtok_r */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erspan-craft.h"

#define SNAPLEN	65535
#define MAXFRAME 2048

struct frame_spec {
	struct erspan_craft craft;
	int udp;
	unsigned int port;
	unsigned long count;
};

static unsigned int frame_no;
static int list_frames;

static void
put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static int
write_header(FILE *fp)
{
	unsigned char h[24];

	put_le32(h, 0xa1b2c3d4);
	h[4] = 2; h[5] = 0;		/* version 2.4, little-endian */
	h[6] = 4; h[7] = 0;
	put_le32(h + 8, 0);		/* thiszone */
	put_le32(h + 12, 0);		/* sigfigs */
	put_le32(h + 16, SNAPLEN);
	put_le32(h + 20, 1);		/* LINKTYPE_ETHERNET */
	return (fwrite(h, sizeof(h), 1, fp) == 1 ? 0 : -1);
}

static int
write_record(FILE *fp, const unsigned char *pkt, size_t caplen, size_t len)
{
	unsigned char h[16];

	/* Timestamps 1 s apart from 2026-01-01, so files are reproducible. */
	put_le32(h, 1767225600U + frame_no);
	put_le32(h + 4, 0);
	put_le32(h + 8, (uint32_t)caplen);
	put_le32(h + 12, (uint32_t)len);
	if (fwrite(h, sizeof(h), 1, fp) != 1 ||
	    fwrite(pkt, 1, caplen, fp) != caplen)
		return (-1);
	return (0);
}

static int
parse_num(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	*v = strtoul(s, &end, 0);
	return (*s != '\0' && *end == '\0' && *v <= max) ? 0 : -1;
}

static int
parse_spec(const char *text, struct frame_spec *fs)
{
	char buf[512], *tok, *save, *eq;
	unsigned long v;
	struct erspan_craft *c = &fs->craft;

	memset(fs, 0, sizeof(*fs));
	c->type = 2;
	fs->port = 80;
	fs->count = 1;
	if (strlen(text) >= sizeof(buf))
		return (-1);
	strcpy(buf, text);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (eq != NULL) {
			*eq++ = '\0';
			if (parse_num(eq, 0xffffffffUL, &v) != 0)
				return (-1);
		} else
			v = 0;
#define IS(name)	(strcmp(tok, name) == 0)
		if (IS("t1") || IS("t2") || IS("t3"))
			c->type = tok[1] - '0';
		else if (IS("v6"))
			c->ipv6 = 1;
		else if (IS("opt") && eq)
			c->ip_optlen = (unsigned int)v;
		else if (IS("tags") && eq)
			c->tags = (unsigned int)v;
		else if (IS("vid") && eq)
			c->outer_vid = (unsigned int)v;
		else if (IS("csum"))
			c->gre_csum = 1;
		else if (IS("key")) {
			c->gre_key = 1;
			c->key = 0x1000 + frame_no;
		} else if (IS("seq"))
			c->gre_seq = 1;
		else if (IS("sid") && eq)
			c->session = (unsigned int)v;
		else if (IS("vlan") && eq)
			c->vlan = (unsigned int)v;
		else if (IS("cos") && eq)
			c->cos = (unsigned int)v;
		else if (IS("en") && eq)
			c->en = (unsigned int)v;
		else if (IS("tbit"))
			c->t = 1;
		else if (IS("index") && eq)
			c->index = (uint32_t)v;
		else if (IS("ts") && eq)
			c->timestamp = (uint32_t)v;
		else if (IS("sgt") && eq)
			c->sgt = (unsigned int)v;
		else if (IS("hwid") && eq)
			c->hw_id = (unsigned int)v;
		else if (IS("d"))
			c->d = 1;
		else if (IS("gra") && eq)
			c->gra = (unsigned int)v;
		else if (IS("ft") && eq)
			c->ft = (unsigned int)v;
		else if (IS("o"))
			c->o = 1;
		else if (IS("pid") && eq)
			c->platf_id = (unsigned int)v;
		else if (IS("udp"))
			fs->udp = 1;
		else if (IS("port") && eq && v <= 0xffff)
			fs->port = (unsigned int)v;
		else if (IS("pad") && eq)
			c->pad_to = v;
		else if (IS("cut") && eq && v > 0)
			c->truncate = v;
		else if (IS("n") && eq && v >= 1 && v <= 10000)
			fs->count = v;
		else if (IS("badver"))
			c->breakage |= ERSPAN_CRAFT_BAD_VERSION;
		else if (IS("routing"))
			c->breakage |= ERSPAN_CRAFT_GRE_ROUTING;
		else if (IS("grever"))
			c->breakage |= ERSPAN_CRAFT_GRE_VERSION;
		else if (IS("frag"))
			c->breakage |= ERSPAN_CRAFT_FRAGMENT;
		else if (IS("fragoff"))
			c->breakage |= ERSPAN_CRAFT_FRAG_OFFSET;
		else if (IS("shortlen"))
			c->breakage |= ERSPAN_CRAFT_SHORT_IPLEN;
		else if (IS("badipver"))
			c->breakage |= ERSPAN_CRAFT_BAD_IP_VERSION;
		else if (IS("notgre"))
			c->breakage |= ERSPAN_CRAFT_NOT_GRE;
		else if (IS("otherproto"))
			c->breakage |= ERSPAN_CRAFT_OTHER_PROTO;
		else
			return (-1);
#undef IS
	}
	return (0);
}

static int
emit(FILE *fp, const char *text)
{
	struct frame_spec fs;
	unsigned char inner[256], out[MAXFRAME];
	struct erspan_craft_layout lay;
	size_t ilen, olen;
	unsigned long i;

	if (parse_spec(text, &fs) != 0) {
		fprintf(stderr, "erspan-pcap: bad frame spec \"%s\"\n", text);
		return (-1);
	}
	for (i = 0; i < fs.count; i++) {
		frame_no++;
		if (fs.craft.gre_key)
			fs.craft.key = 0x1000 + frame_no;
		fs.craft.seq = frame_no;
		ilen = erspan_craft_inner(frame_no, fs.udp, fs.port, inner,
		    sizeof(inner));
		olen = erspan_craft_layout(&fs.craft, inner, ilen, out,
		    sizeof(out), &lay);
		if (ilen == 0 || olen == 0) {
			fprintf(stderr, "erspan-pcap: cannot build \"%s\"\n",
			    text);
			return (-1);
		}
		if (write_record(fp, out, olen, lay.frame_len) != 0) {
			perror("erspan-pcap: write");
			return (-1);
		}
		if (list_frames)
			printf("%u %zu %s\n", frame_no, lay.frame_len, text);
	}
	return (0);
}

/*
 * The valid variants: every type over IPv4, IPv4 with options and IPv6,
 * with 0-2 outer tags and every GRE C/K combination (type III with and
 * without the platform subheader); padded frames; frames cut inside
 * the inner frame (still ERSPAN, with a short inner frame).
 */
static int
emit_variants(FILE *fp)
{
	static const char *const ips[] = { "", ",opt=8", ",v6" };
	static const char *const gres[] = { "", ",csum", ",key", ",csum,key" };
	char spec[256];
	unsigned int type, ip, tags, gre, o, k;

	for (type = 1; type <= 3; type++)
		for (ip = 0; ip < 3; ip++)
			for (tags = 0; tags <= 2; tags++)
				for (gre = 0; gre < 4; gre++)
					for (o = 0; o <= (type == 3); o++) {
						k = frame_no + 1;
						snprintf(spec, sizeof(spec),
						    "t%u%s,tags=%u,vid=%u%s%s%s,sid=%u,%s",
						    type, ips[ip], tags, 100 + tags,
						    gres[gre], type == 3 ? ",seq" : "",
						    o ? ",o,pid=3" : "",
						    k % 3 == 0 ? 7 : k % 1024,
						    k % 4 == 3 ? "udp,port=53" :
						    k % 4 == 1 ? "port=443" : "port=80");
						if (emit(fp, spec) != 0)
							return (-1);
					}
	/* Padding after the IP datagram must not count as inner data. */
	if (emit(fp, "t1,pad=120") != 0 || emit(fp, "t2,sid=7,pad=128") != 0 ||
	    emit(fp, "t2,sid=7,cut=53") != 0 || emit(fp, "t3,o,cut=70") != 0)
		return (-1);
	return (0);
}

/* One frame per breakage, and frames cut inside the outer headers. */
static int
emit_broken(FILE *fp)
{
	static const char *const broken[] = {
		"t2,badver", "t3,badver", "t2,routing", "t1,routing",
		"t2,grever", "t3,grever", "t2,frag", "t2,fragoff", "t3,frag",
		"t2,shortlen", "t3,v6,shortlen", "t2,badipver", "t2,v6,badipver",
		"t2,notgre", "t2,v6,notgre", "t2,otherproto", "t3,ft=2",
		"t3,ft=7,o", "t2,cut=40", "t3,o,cut=57", "t1,cut=30",
		"t2,tags=1,cut=16", "t2,sid=7,cut=49",
	};
	unsigned int k;

	for (k = 0; k < sizeof(broken) / sizeof(broken[0]); k++)
		if (emit(fp, broken[k]) != 0)
			return (-1);
	return (0);
}

int
main(int argc, char **argv)
{
	FILE *fp;
	int i, first;

	first = 1;
	if (argc > 1 && strcmp(argv[1], "-l") == 0) {
		list_frames = 1;
		first = 2;
	}
	if (argc - first < 2) {
		fprintf(stderr, "usage: erspan-pcap [-l] OUT.pcap SPEC...\n");
		return (1);
	}
	fp = fopen(argv[first], "wb");
	if (fp == NULL) {
		perror(argv[first]);
		return (1);
	}
	if (write_header(fp) != 0) {
		perror("erspan-pcap: write");
		fclose(fp);
		return (1);
	}
	for (i = first + 1; i < argc; i++) {
		if (strcmp(argv[i], "variants") == 0 ||
		    strcmp(argv[i], "matrix") == 0) {
			if (emit_variants(fp) != 0)
				break;
		}
		if (strcmp(argv[i], "broken") == 0 ||
		    strcmp(argv[i], "matrix") == 0) {
			if (emit_broken(fp) != 0)
				break;
		} else if (strcmp(argv[i], "variants") != 0 &&
		    emit(fp, argv[i]) != 0)
			break;
	}
	if (fclose(fp) != 0) {
		perror(argv[first]);
		return (1);
	}
	return (i < argc ? 1 : 0);
}
