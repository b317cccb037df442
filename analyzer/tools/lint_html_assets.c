// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report page's files as C arrays (lint_html_assets.h): the build
 * writes each with report/embed.cmake, from third_party/uplot/ and report/.
 */
#include "lint_html_assets.h"

#include "html_asset_uplot_js.inc"
#include "html_asset_uplot_css.inc"
#include "html_asset_css.inc"
#include "html_asset_body.inc"
#include "html_asset_js.inc"
