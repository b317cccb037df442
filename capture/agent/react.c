// SPDX-License-Identifier: GPL-2.0-or-later
/* One injection's reaction and verdict, written once for every role (react.h). */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "manifest.h"
#include "react.h"

void inj_react_record(struct mf_writer *mf, const char *inject, int role, const char *broke, uint32_t xid,
		      bool reply, const struct jd_reaction *r)
{
	struct mf_reaction mr;
	struct mf_verdict v;
	struct jd_verdict jv;

	memset(&mr, 0, sizeof(mr));
	mr.xid = xid;
	mr.reply = reply;
	g_strlcpy(mr.inject, inject, sizeof(mr.inject));
	g_strlcpy(mr.answer, jd_answer_name(r->answer), sizeof(mr.answer));
	mr.credit = r->credit;
	mr.reconnects = r->reconnects;
	mr.retransmits = r->retransmits;
	mr.elapsed_ms = r->elapsed_ms;
	g_strlcpy(mr.error, r->app_error, sizeof(mr.error));
	jd_judge(inject, role, broke, r, &jv);
	memset(&v, 0, sizeof(v));
	g_strlcpy(v.rule, jv.rule, sizeof(v.rule));
	v.xid = xid;
	g_strlcpy(v.result, jv.result, sizeof(v.result));
	g_strlcpy(v.text, jv.why, sizeof(v.text));
	fprintf(stderr, AGENT_NAME ": reaction %s xid 0x%08x: %s%s%s; verdict %s %s\n", inject, xid, mr.answer,
		*mr.error ? ": " : "", mr.error, v.rule, v.result);
	if (mf) {
		mf_write_reaction(mf, &mr);
		mf_write_verdict(mf, &v);
	}
}
