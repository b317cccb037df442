# SPDX-License-Identifier: GPL-2.0-or-later
# The capture decoder: one file per protocol layer (paths relative to analyzer/),
# in the order data flows through them (decode_int.h).
set(RR_DECODE_SOURCES
  decode/pcap_reader.c
  decode/frame_decoder.c
  decode/link.c
  decode/erf.c
  decode/ip.c
  decode/roce.c
  decode/ib.c
  decode/tcp_stream.c
  decode/tcp_table.c
  decode/stream.c
  decode/mpa.c
  decode/mpa_detect.c
  decode/fpdu.c
  decode/ddp_rdmap.c
  decode/crc.c
  decode/emit.c
)
