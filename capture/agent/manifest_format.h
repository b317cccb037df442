/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * manifest_format.h - what the manifest writer and reader agree on beyond
 * manifest.h: the first line, and how empty things are spelt.
 *
 *  - an empty list is "-"; a chunk with no segments (a write chunk inside
 *    writes=, or the reply chunk) is "empty", so that "no reply chunk"
 *    (reply=-) and "a reply chunk of zero segments" (reply=empty) differ;
 *  - empty text is an empty value ("note=", also "proc="); also= and
 *    inject= use "-".
 */
#ifndef AGENT_MANIFEST_FORMAT_H
#define AGENT_MANIFEST_FORMAT_H

/* The first line: MF_MAGIC then the version in decimal. */
#define MF_MAGIC "# rpcrdma-agent manifest "
#define MF_VERSION 1

#endif
