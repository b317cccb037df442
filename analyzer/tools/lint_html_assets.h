/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lint_html_assets.h - the report page's files, built into ulb-lint
 * (analyzer/tools/CMakeLists.txt runs report/embed.cmake on them): each is
 * NUL-terminated, its length without the NUL beside it.
 */
#ifndef ULB_LINT_HTML_ASSETS_H
#define ULB_LINT_HTML_ASSETS_H

#include <stddef.h>

extern const unsigned char html_asset_uplot_js[];   /* third_party/uplot/uPlot.iife.min.js */
extern const size_t html_asset_uplot_js_len;
extern const unsigned char html_asset_uplot_css[];  /* third_party/uplot/uPlot.min.css */
extern const size_t html_asset_uplot_css_len;
extern const unsigned char html_asset_css[];        /* report/report.css */
extern const size_t html_asset_css_len;
extern const unsigned char html_asset_body[];       /* report/body.html */
extern const size_t html_asset_body_len;
extern const unsigned char html_asset_js[];         /* the report/ scripts, in page order */
extern const size_t html_asset_js_len;

#endif
