// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report page: one HTML file holding everything it shows and runs (the
 * data as JSON, the page's script and style, the charting library), so it
 * opens from disk in any browser with no network.  Scripts come last: the
 * body's skeleton and the data are parsed before the script that fills them.
 */
#include "lint_html_assets.h"
#include "lint_html_int.h"

#ifndef RR_REPORT_DOCS_URL
#define RR_REPORT_DOCS_URL ""
#endif

static void text(FILE *out, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
}

static void asset(FILE *out, const unsigned char *a, size_t n)
{
	fwrite(a, 1, n, out);
}

void html_page_write(FILE *out, struct lint_html *h, const char *capture, const uint64_t *skipped)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"ulb-lint --report\">\n<title>ulb-lint: ", out);
	text(out, capture);
	fputs("</title>\n<style>\n", out);
	asset(out, html_asset_uplot_css, html_asset_uplot_css_len);
	fputs("</style>\n<style>\n", out);
	asset(out, html_asset_css, html_asset_css_len);
	fputs("</style>\n</head>\n<body data-docs=\"", out);
	text(out, RR_REPORT_DOCS_URL);
	fputs("\">\n", out);
	asset(out, html_asset_body, html_asset_body_len);
	fputs("<script type=\"application/json\" id=\"rr-data\">", out);
	html_json_write(out, h, capture, skipped);
	fputs("</script>\n<script>\n", out);
	asset(out, html_asset_uplot_js, html_asset_uplot_js_len);
	fputs("</script>\n<script>\n", out);
	asset(out, html_asset_js, html_asset_js_len);
	fputs("</script>\n</body>\n</html>\n", out);
}
