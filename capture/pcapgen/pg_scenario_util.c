// SPDX-License-Identifier: GPL-2.0-or-later
/* Pieces both halves of the scenario parser use: "file:line:" errors,
 * numbers and on/off values, and items. */
#include "pg_scenario_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

bool pg_fail(pctx *c, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_free(*c->err);
	*c->err = g_strdup_printf("%s:%d: %s", c->path, c->line, msg);
	g_free(msg);
	return false;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;
	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno == 0 && *end == '\0';
}

bool pg_num(pctx *c, const char *key, const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	if (!parse_u64(s, v))
		return pg_fail(c, "%s: '%s' is not a number", key, s);
	if (*v < lo || *v > hi)
		return pg_fail(c, "%s: %s is out of range %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT,
			    key, s, lo, hi);
	return true;
}

bool pg_num32(pctx *c, const char *key, const char *s, uint32_t lo, uint32_t hi, uint32_t *v)
{
	uint64_t t = 0;
	if (!pg_num(c, key, s, lo, hi, &t))
		return false;
	*v = (uint32_t)t;
	return true;
}

bool pg_onoff(pctx *c, const char *key, const char *s, bool *v)
{
	if (!strcmp(s, "on") || !strcmp(s, "1") || !strcmp(s, "yes") || !strcmp(s, "true"))
		*v = true;
	else if (!strcmp(s, "off") || !strcmp(s, "0") || !strcmp(s, "no") || !strcmp(s, "false"))
		*v = false;
	else
		return pg_fail(c, "%s: expected on or off, got '%s'", key, s);
	return true;
}

static void inject_free(gpointer p)
{
	pg_inject_spec *in = p;
	g_free(in->name);
	g_free(in->arg);
	g_free(in);
}

pg_item *pg_item_new(int line, int kind)
{
	pg_item *it = g_new0(pg_item, 1);
	it->line = line;
	it->kind = kind;
	it->ops = g_array_new(FALSE, TRUE, sizeof(pg_nfsop));
	it->injects = g_ptr_array_new_with_free_func(inject_free);
	it->split = 2;
	return it;
}

void pg_item_free(gpointer p)
{
	pg_item *it = p;
	if (!it)
		return;
	g_array_free(it->ops, TRUE);
	g_ptr_array_free(it->injects, TRUE);
	g_free(it);
}
