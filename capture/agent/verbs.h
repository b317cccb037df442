/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verbs.h - one reliable connection over librdmacm and libibverbs, driven
 * synchronously: the agent posts one operation and waits for it, so that
 * the order on the wire is the order in the code (which is what a test
 * tool wants; vb_rdma_split() posts a window of pieces of one transfer).
 *
 * Receives: `depth` buffers of `recv_size` bytes are posted at connect
 * time and re-posted as soon as a message has been copied out, so a peer
 * that keeps within the credits it was granted never meets RNR.
 */
#ifndef AGENT_VERBS_H
#define AGENT_VERBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include <signal.h>

struct vb_conn;
struct vb_listener;

/* Set from a signal handler: every wait returns at once, as failed ("interrupted"). */
extern volatile sig_atomic_t vb_interrupted;

struct vb_opts {
	uint32_t depth;          /* receive buffers (credits granted or expected) */
	uint32_t recv_size;      /* inline receive size */
	uint32_t max_rdma;       /* RDMA operations outstanding (vb_rdma_split) */
	int timeout_ms;          /* for every wait */
	const void *private_data;/* RFC 8797 message sent with the connect / accept */
	uint8_t private_len;
};

struct vb_mr {
	struct ibv_mr *mr;
	uint8_t *buf;
	size_t len;
	bool borrowed;           /* buf belongs to the caller (vb_reg_buf): vb_dereg keeps it */
};

/* A received message: valid until the next vb_recv(). */
struct vb_msg {
	uint8_t *data;
	uint32_t len;
	bool invalidated;        /* Send With Invalidate */
	uint32_t inv_rkey;
};

struct vb_conn *vb_connect(const char *server, uint16_t port, const struct vb_opts *o,
			   char *err, size_t errlen);
struct vb_listener *vb_listen(const char *bind_addr, uint16_t port, char *err, size_t errlen);
/* Waits for one connection request and accepts it; the peer's private data is copied out. */
struct vb_conn *vb_accept(struct vb_listener *l, const struct vb_opts *o, uint8_t *peer_pd,
			  uint8_t *peer_pd_len, int timeout_ms, char *err, size_t errlen);
void vb_listener_free(struct vb_listener *l);

const char *vb_device_name(const struct vb_conn *c);

bool vb_reg(struct vb_conn *c, struct vb_mr *m, size_t len, bool remote_write, bool remote_read);
void vb_dereg(struct vb_mr *m);
/*
 * Registers the caller's buffer (not copied, not freed by vb_dereg): one
 * buffer registered on two connections' protection domains is what a
 * relay pulls into on one and offers on the other.
 */
bool vb_reg_buf(struct vb_conn *c, struct vb_mr *m, void *buf, size_t len, bool remote_write,
		bool remote_read);
/* The private data the peer sent with its accept (vb_connect) or connect (vb_accept). */
const uint8_t *vb_peer_private(const struct vb_conn *c, uint8_t *len);

/* Sends n messages, the pieces of m from offset 0 of lens[0], lens[1], ... bytes, posted
 * back to back, and waits for the last one's completion (false: one of them failed). */
bool vb_send(struct vb_conn *c, struct vb_mr *m, const size_t *lens, unsigned n, char *err, size_t errlen);
/*
 * RDMA Read (write=false) or Write into/from m+off; waits.  On a failed
 * completion returns false with the work-completion status text in err
 * (the remote access error an out-of-bounds Write gets) and *wc_status.
 */
bool vb_rdma(struct vb_conn *c, bool write, struct vb_mr *m, size_t off, uint32_t len,
	     uint32_t rkey, uint64_t raddr, int *wc_status, char *err, size_t errlen);
/*
 * The same transfer split into pieces of `piece` bytes, up to max_rdma of
 * them in flight (one segment pulled or pushed by several operations,
 * which RFC 8166 allows): what keeps a long transfer's pipe full.
 */
bool vb_rdma_split(struct vb_conn *c, bool write, struct vb_mr *m, size_t off, uint32_t len,
		   uint32_t rkey, uint64_t raddr, uint32_t piece, int *wc_status, char *err,
		   size_t errlen);
/*
 * Next received message; false on timeout, disconnect or error (err says
 * which; *disconnected tells the disconnect apart).
 */
bool vb_recv(struct vb_conn *c, struct vb_msg *out, int timeout_ms, bool *disconnected,
	     char *err, size_t errlen);
/*
 * The next message on any of n connections, the earlier ones first: what
 * a relay waits on.  Returns the index of the connection it came from (or
 * that disconnected or failed: false in *ok, the reason in err), -1 when
 * the timeout passed or a signal came.  Valid until that connection's next
 * vb_recv() or vb_recv_any().
 */
int vb_recv_any(struct vb_conn *const *cs, unsigned n, struct vb_msg *out, int timeout_ms,
		bool *ok, bool *disconnected, char *err, size_t errlen);
void vb_disconnect(struct vb_conn *c);
void vb_free(struct vb_conn *c);

#endif
