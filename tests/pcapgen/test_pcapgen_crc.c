// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of the generator's own checksum primitives against values that
 * come from outside this project:
 *  - CRC-32 and CRC-32C check values of "123456789" (CRC catalogue);
 *  - CRC-32C vectors of RFC 3720 appendix B.4 (the CRC MPA uses);
 *  - a RoCEv2 CNP captured from a ConnectX-4 Lx NIC (published with
 *    scapy's RoCE tests): its ICRC and its IPv4 header checksum were
 *    computed by the hardware.
 */
#include "pg_crc.h"
#include "pg_net.h"

#include <stdio.h>
#include <string.h>

static int passed, failed;

static void check(const char *what, uint32_t got, uint32_t want)
{
	if (got == want) {
		passed++;
		printf("ok   %-44s 0x%08x\n", what, got);
	} else {
		failed++;
		printf("FAIL %-44s got 0x%08x want 0x%08x\n", what, got, want);
	}
}

static void rfc3720(void)
{
	uint8_t buf[48];
	static const uint8_t read10[48] = {
		0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
		0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	/* B.4 lists the CRC bytes as transmitted (least significant first) */
	memset(buf, 0, 32);
	check("crc32c 32 x 0x00 (RFC 3720 B.4)", pg_crc32c(0, buf, 32), 0x8a9136aa);
	memset(buf, 0xff, 32);
	check("crc32c 32 x 0xff (RFC 3720 B.4)", pg_crc32c(0, buf, 32), 0x62a8ab43);
	for (int i = 0; i < 32; i++)
		buf[i] = (uint8_t)i;
	check("crc32c 0x00..0x1f (RFC 3720 B.4)", pg_crc32c(0, buf, 32), 0x46dd794e);
	for (int i = 0; i < 32; i++)
		buf[i] = (uint8_t)(31 - i);
	check("crc32c 0x1f..0x00 (RFC 3720 B.4)", pg_crc32c(0, buf, 32), 0x113fdb5c);
	check("crc32c iSCSI READ(10) PDU (RFC 3720 B.4)", pg_crc32c(0, read10, 48), 0xd9963a56);
}

static void check_values(void)
{
	static const char nine[] = "123456789";
	check("crc32 check value", pg_crc32(0, nine, 9), 0xcbf43926);
	check("crc32c check value", pg_crc32c(0, nine, 9), 0xe3069283);
	/* chaining must equal one pass */
	check("crc32 chained", pg_crc32(pg_crc32(0, nine, 4), nine + 4, 5), 0xcbf43926);
	check("crc32c chained", pg_crc32c(pg_crc32c(0, nine, 3), nine + 3, 6), 0xe3069283);
}

static void rocev2_cnp(void)
{
	/* Ethernet / IPv4 / UDP 4791 / BTH (CNP, opcode 0x81) / 16 zero bytes / ICRC */
	static const uint8_t pkt[74] = {
		0xe4, 0x1d, 0x2d, 0xab, 0x2b, 0xc2, 0x7c, 0xfe, 0x90, 0x64, 0x3b, 0x32, 0x08, 0x00,
		0x45, 0xc2, 0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00, 0x40, 0x11, 0x91, 0x61, 0x0a, 0x00,
		0x11, 0x01, 0x0a, 0x00, 0x12, 0x01, 0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,
		0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x01, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x82, 0xfd, 0x00, 0x2a,
	};
	const pg_link_info *l = pg_link_by_name("rocev2");
	uint32_t wire = (uint32_t)pkt[70] | (uint32_t)pkt[71] << 8 | (uint32_t)pkt[72] << 16 |
			(uint32_t)pkt[73] << 24;
	uint8_t ip[20];
	check("RoCEv2 ICRC of a ConnectX-4 Lx CNP", pg_net_icrc(l, pkt, 70), wire);
	memcpy(ip, pkt + 14, 20);
	ip[10] = ip[11] = 0;
	check("IPv4 header checksum of the same packet", pg_csum_fold(pg_csum_add(0, ip, 20)),
	      0x9161);
}

static void residues(void)
{
	/* A reflected CRC with its value appended low byte first leaves a
	 * constant residue: the property the receivers of ICRC/VCRC rely on. */
	uint8_t a[16] = "abcdefghijklmno", b[24] = "0123456789abcdefghijklm";
	uint16_t va = pg_ib_vcrc(a, 14), vb = pg_ib_vcrc(b, 22);
	a[14] = (uint8_t)va;
	a[15] = (uint8_t)(va >> 8);
	b[22] = (uint8_t)vb;
	b[23] = (uint8_t)(vb >> 8);
	check("VCRC residue independent of the data", pg_ib_vcrc(a, 16), pg_ib_vcrc(b, 24));
	{
		uint32_t c = pg_crc32(0, a, 12);
		uint8_t t[16];
		memcpy(t, a, 12);
		t[12] = (uint8_t)c;
		t[13] = (uint8_t)(c >> 8);
		t[14] = (uint8_t)(c >> 16);
		t[15] = (uint8_t)(c >> 24);
		check("crc32 residue (0x2144df1c)", pg_crc32(0, t, 16), 0x2144df1c);
	}
}

int main(void)
{
	check_values();
	rfc3720();
	rocev2_cnp();
	residues();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
