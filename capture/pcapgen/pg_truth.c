// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_truth.h"

#include <string.h>

typedef struct {
	pg_tmsg_info info;
	GPtrArray *opnames;
	char sha[65];
	uint32_t payload_len;
	GArray *frames;     /* uint32_t, ascending */
	GPtrArray *injected;
	GString *chunks;    /* JSON object or NULL */
	uint32_t snap;
	char *label;
	guint conn;         /* index into pg_truth.conns */
} tmsg;

typedef struct {
	char rule[16];
	uint32_t frame;
} texpect;

typedef struct {
	char *name, *client, *server;
	uint32_t client_qpn, server_qpn, client_psn, server_psn;
} tconn;

struct pg_truth {
	GPtrArray *msgs;
	GPtrArray *conns; /* tconn*, in the order they opened */
	GArray *expect; /* texpect; NULL until enabled */
};

static void tmsg_free(gpointer p)
{
	tmsg *m = p;
	if (m->opnames)
		g_ptr_array_free(m->opnames, TRUE);
	g_array_free(m->frames, TRUE);
	g_ptr_array_free(m->injected, TRUE);
	if (m->chunks)
		g_string_free(m->chunks, TRUE);
	g_free(m->label);
	g_free(m);
}

static void tconn_free(gpointer p)
{
	tconn *c = p;
	g_free(c->name);
	g_free(c->client);
	g_free(c->server);
	g_free(c);
}

pg_truth *pg_truth_new(void)
{
	pg_truth *t = g_new0(pg_truth, 1);
	t->msgs = g_ptr_array_new_with_free_func(tmsg_free);
	t->conns = g_ptr_array_new_with_free_func(tconn_free);
	return t;
}

void pg_truth_conn(pg_truth *t, const pg_conninfo *ci)
{
	tconn *c = g_new0(tconn, 1);
	c->name = g_strdup(ci->name);
	c->client = g_strdup(ci->client);
	c->server = g_strdup(ci->server);
	c->client_qpn = ci->client_qpn;
	c->server_qpn = ci->server_qpn;
	c->client_psn = ci->client_psn;
	c->server_psn = ci->server_psn;
	g_ptr_array_add(t->conns, c);
}

void pg_truth_free(pg_truth *t)
{
	if (!t)
		return;
	g_ptr_array_free(t->msgs, TRUE);
	g_ptr_array_free(t->conns, TRUE);
	if (t->expect)
		g_array_free(t->expect, TRUE);
	g_free(t);
}

int pg_truth_add(pg_truth *t, const pg_tmsg_info *info)
{
	tmsg *m = g_new0(tmsg, 1);
	gchar *sha;
	m->info = *info;
	m->info.payload = NULL;
	m->info.opnames = NULL;
	if (info->opnames) {
		m->opnames = g_ptr_array_new_with_free_func(g_free);
		for (guint i = 0; i < info->opnames->len; i++)
			g_ptr_array_add(m->opnames, g_strdup(info->opnames->pdata[i]));
	}
	sha = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
					  info->payload ? info->payload->data : (const guchar *)"",
					  info->payload ? info->payload->len : 0);
	g_strlcpy(m->sha, sha, sizeof(m->sha));
	g_free(sha);
	m->payload_len = info->payload ? info->payload->len : 0;
	m->frames = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	m->injected = g_ptr_array_new_with_free_func(g_free);
	if (!t->conns->len)
		pg_bug("truth message before any connection");
	m->conn = t->conns->len - 1;
	m->label = g_strdup_printf("%s xid 0x%08x %s", info->call ? "call" : "reply", info->xid,
				   info->rdma_proc);
	g_ptr_array_add(t->msgs, m);
	return (int)t->msgs->len - 1;
}

static tmsg *get(const pg_truth *t, int id)
{
	if (id < 0 || (guint)id >= t->msgs->len)
		pg_bug("truth id %d", id);
	return t->msgs->pdata[id];
}

static void segs_json(GString *s, const GArray *segs)
{
	g_string_append_c(s, '[');
	for (guint i = 0; i < segs->len; i++) {
		const pg_seg *g = &g_array_index(segs, pg_seg, i);
		g_string_append_printf(s, "%s{\"handle\":\"0x%08x\",\"length\":%u,"
					  "\"offset\":\"0x%016" G_GINT64_MODIFIER "x\"}",
				       i ? "," : "", g->handle, g->length, g->offset);
	}
	g_string_append_c(s, ']');
}

/* The chunk lists as encoded in this message's header. */
void pg_truth_chunks(pg_truth *t, int id, const pg_rdmamsg *r)
{
	tmsg *m = get(t, id);
	GString *s = g_string_new("{\"reads\":[");
	for (guint i = 0; i < r->reads->len; i++) {
		const pg_chunk *c = r->reads->pdata[i];
		g_string_append_printf(s, "%s{\"position\":%u,\"segments\":", i ? "," : "",
				       c->position);
		segs_json(s, c->segs);
		g_string_append_c(s, '}');
	}
	g_string_append(s, "],\"writes\":[");
	for (guint i = 0; i < r->writes->len; i++) {
		const pg_chunk *c = r->writes->pdata[i];
		g_string_append_printf(s, "%s{\"segments\":", i ? "," : "");
		segs_json(s, r->returned ? c->ret : c->segs);
		/* where the responder took the item from: lets a test rebuild
		 * the Payload without an NFS decoder */
		if (r->returned && c->data_off >= 0 && c->data->len)
			g_string_append_printf(s, ",\"data_offset\":%" G_GINT64_FORMAT "}", c->data_off);
		else
			g_string_append(s, ",\"data_offset\":null}");
	}
	g_string_append(s, "],\"reply\":");
	if (r->reply)
		segs_json(s, r->returned ? r->reply->ret : r->reply->segs);
	else
		g_string_append(s, "null");
	g_string_append_c(s, '}');
	if (m->chunks)
		g_string_free(m->chunks, TRUE);
	m->chunks = s;
}

void pg_truth_inject(pg_truth *t, int id, const char *name)
{
	g_ptr_array_add(get(t, id)->injected, g_strdup(name));
}

void pg_truth_set_snap(pg_truth *t, int id, uint32_t snaplen)
{
	get(t, id)->snap = snaplen;
}

uint32_t pg_truth_snap(const pg_truth *t, int id)
{
	return get(t, id)->snap;
}

void pg_truth_frame(pg_truth *t, int id, uint32_t frame)
{
	tmsg *m = get(t, id);
	if (m->frames->len && g_array_index(m->frames, uint32_t, m->frames->len - 1) >= frame)
		return;
	g_array_append_val(m->frames, frame);
}

const char *pg_truth_label(const pg_truth *t, int id)
{
	return get(t, id)->label;
}

void pg_truth_expect_enable(pg_truth *t)
{
	if (!t->expect)
		t->expect = g_array_new(FALSE, TRUE, sizeof(texpect));
}

void pg_truth_expect(pg_truth *t, const char *rule, uint32_t frame)
{
	texpect e = { { 0 }, frame };
	pg_truth_expect_enable(t);
	g_strlcpy(e.rule, rule, sizeof(e.rule));
	for (guint i = 0; i < t->expect->len; i++) {
		const texpect *o = &g_array_index(t->expect, texpect, i);
		if (o->frame == frame && !strcmp(o->rule, e.rule))
			return;
	}
	g_array_append_val(t->expect, e);
}

static gint expect_cmp(gconstpointer a, gconstpointer b)
{
	const texpect *x = a, *y = b;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return strcmp(x->rule, y->rule);
}

static void json_str(GString *s, const char *v)
{
	g_string_append_c(s, '"');
	for (const char *p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_printf(s, "\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			g_string_append_printf(s, "\\u%04x", *p);
		else
			g_string_append_c(s, *p);
	}
	g_string_append_c(s, '"');
}

static void msg_json(GString *s, const tmsg *m, const char *conn)
{
	const pg_tmsg_info *i = &m->info;
	g_string_append_printf(s, "    {\"xid\":\"0x%08x\",\"rdma_xid\":\"0x%08x\",\"dir\":\"%s\","
				  "\"sender\":\"%s\",\"conn\":",
			       i->xid, i->rdma_xid, i->call ? "call" : "reply",
			       i->sender == PG_CLIENT ? "client" : "server");
	json_str(s, conn);
	g_string_append(s, ",\n     \"frames\":[");
	for (guint k = 0; k < m->frames->len; k++)
		g_string_append_printf(s, "%s%u", k ? "," : "", g_array_index(m->frames, uint32_t, k));
	if (m->frames->len)
		g_string_append_printf(s, "],\"first_frame\":%u,\"last_frame\":%u,\n",
				       g_array_index(m->frames, uint32_t, 0),
				       g_array_index(m->frames, uint32_t, m->frames->len - 1));
	else
		g_string_append(s, "],\"first_frame\":null,\"last_frame\":null,\n");
	g_string_append_printf(s, "     \"rdma_proc\":\"%s\",\"rdma_credit\":%u,", i->rdma_proc,
			       i->credit);
	if (i->has_rpc) {
		g_string_append_printf(s, "\"rpc_program\":%u,\"rpc_version\":%u,\"rpc_procedure\":",
				       i->program, i->version);
		if (m->opnames) {
			g_string_append_c(s, '[');
			for (guint k = 0; k < m->opnames->len; k++) {
				if (k)
					g_string_append_c(s, ',');
				json_str(s, m->opnames->pdata[k]);
			}
			g_string_append_c(s, ']');
		} else {
			g_string_append_printf(s, "%u", i->procedure);
		}
	} else {
		g_string_append(s, "\"rpc_program\":null,\"rpc_version\":null,\"rpc_procedure\":null");
	}
	g_string_append_printf(s, ",\n     \"payload_len\":%u,\"payload_sha256\":\"%s\",\"injected\":[",
			       m->payload_len, m->sha);
	for (guint k = 0; k < m->injected->len; k++) {
		if (k)
			g_string_append_c(s, ',');
		json_str(s, m->injected->pdata[k]);
	}
	g_string_append_printf(s, "],\"backchannel\":%s,\"payload_on_wire\":%s,\"line\":%d",
			       i->backchannel ? "true" : "false", i->not_on_wire ? "false" : "true",
			       i->line);
	if (m->chunks)
		g_string_append_printf(s, ",\n     \"chunks\":%s", m->chunks->str);
	g_string_append(s, "}");
}

bool pg_truth_write(const pg_truth *t, const char *path, const pg_scenario *s, uint32_t nframes,
		    char **err)
{
	GString *j = g_string_new("{\n  \"generator\":\"rpcrdma-pcapgen\",\"scenario\":");
	GError *gerr = NULL;
	gchar *base = g_path_get_basename(s->path);
	bool ok;
	json_str(j, base);
	g_free(base);
	g_string_append_printf(j, ",\"seed\":%" G_GUINT64_FORMAT ",\n  \"link\":\"%s\",\"dlt\":%u,"
				  "\"format\":\"%s\",\"handshake\":%s,\"mtu\":%u,\"frames\":%u,\n",
			       s->seed, s->link->name, s->link->dlt,
			       s->format == PG_FMT_PCAPNG ? "pcapng" : "pcap",
			       s->handshake ? "true" : "false", s->mtu, nframes);
	if (s->rfc5666)
		g_string_append(j, "  \"profile\":\"rfc5666\",\n");
	g_string_append(j, "  \"connections\":[");
	for (guint i = 0; i < t->conns->len; i++) {
		const tconn *c = t->conns->pdata[i];
		g_string_append(j, i ? ",\n    {\"name\":" : "{\"name\":");
		json_str(j, c->name);
		g_string_append(j, ",\"client\":");
		json_str(j, c->client);
		g_string_append(j, ",\"server\":");
		json_str(j, c->server);
		if (!s->link->iwarp)
			g_string_append_printf(j, ",\"client_qpn\":\"0x%06x\",\"server_qpn\":\"0x%06x\","
						  "\"client_psn\":\"0x%06x\",\"server_psn\":\"0x%06x\"",
					       c->client_qpn, c->server_qpn, c->client_psn,
					       c->server_psn);
		g_string_append(j, "}");
	}
	g_string_append(j, "],\n  \"messages\":[\n");
	for (guint i = 0; i < t->msgs->len; i++) {
		const tmsg *m = t->msgs->pdata[i];
		msg_json(j, m, ((const tconn *)t->conns->pdata[m->conn])->name);
		g_string_append(j, i + 1 < t->msgs->len ? ",\n" : "\n");
	}
	g_string_append(j, "  ]");
	if (t->expect) {
		g_array_sort(t->expect, expect_cmp);
		g_string_append(j, ",\n  \"expect\":[");
		for (guint i = 0; i < t->expect->len; i++) {
			const texpect *e = &g_array_index(t->expect, texpect, i);
			g_string_append_printf(j, "%s{\"rule\":\"%s\",\"frame\":%u}", i ? "," : "",
					       e->rule, e->frame);
		}
		g_string_append(j, "]");
	}
	g_string_append(j, "\n}\n");
	ok = g_file_set_contents(path, j->str, (gssize)j->len, &gerr);
	if (!ok) {
		*err = g_strdup_printf("%s: %s", path, gerr->message);
		g_error_free(gerr);
	}
	g_string_free(j, TRUE);
	return ok;
}
