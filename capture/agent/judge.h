/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * judge.h - what the peer did after a message the agent broke on purpose
 * (its reaction), and whether that is what a conforming peer does.  The
 * table of duties is judge.c's, one entry per injector and role.
 */
#ifndef AGENT_JUDGE_H
#define AGENT_JUDGE_H

#include <stdbool.h>
#include <stdint.h>

/* The answer, as the side that broke the message saw it. */
enum jd_answer {
	JD_NONE,          /* nothing yet */
	JD_REPLY,         /* a normal RPC reply */
	JD_NFS_ERROR,     /* a reply whose NFS status is not OK */
	JD_GARBAGE,       /* RPC GARBAGE_ARGS */
	JD_RPC_ERROR,     /* another RPC-level error */
	JD_ERR_CHUNK,     /* RDMA_ERROR ERR_CHUNK */
	JD_ERR_VERS,      /* RDMA_ERROR ERR_VERS */
	JD_BAD_REPLY,     /* a reply whose transport header does not decode */
	JD_DISCONNECT,    /* the connection went down */
	JD_TIMEOUT,       /* nothing within the timeout: a hang */
	JD_NEXT_CALL,     /* responder's view: the requester sent another call */
	JD_RETRANSMIT,    /* responder's view: the requester sent the same XID again */
	JD_ACCESS_ERROR,  /* responder's view: the requester's RNIC refused an RDMA operation */
	JD_REFUSED,       /* responder's view: the requester's RNIC refused the reply's Send */
	JD_N_ANSWERS
};

const char *jd_answer_name(enum jd_answer a);   /* "err-chunk", ... (manifest) */
const char *jd_answer_text(enum jd_answer a);   /* "RDMA_ERROR ERR_CHUNK", ... */

struct jd_reaction {
	enum jd_answer answer;
	uint32_t credit;          /* the answer's rdma_credit (a reply) */
	unsigned reconnects;      /* connections made again after it */
	unsigned retransmits;     /* the message sent again */
	uint32_t elapsed_ms;      /* from the broken message to the answer */
	char app_error[128];      /* what the agent, as an application, was told */
};

struct jd_verdict {
	const char *rule;         /* the rule whose duty is judged */
	const char *result;       /* "pass", "fail", "n/a" */
	char why[224];
};

/* The duty of the peer of role (INJ_REQ: the agent broke a call, the
 * responder's duty is judged; INJ_RESP: the requester's) after injector
 * name; broke: the rule the agent broke (the inject line's). */
void jd_judge(const char *name, int role, const char *broke, const struct jd_reaction *r,
	      struct jd_verdict *v);

#endif
