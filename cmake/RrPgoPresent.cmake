# SPDX-License-Identifier: GPL-2.0-or-later
# cmake -DDIR=<profile folder> -P RrPgoPresent.cmake: fails the build when the
# profile a tree was configured with is gone (see RrPgo.cmake).
if(NOT EXISTS ${DIR}/rr-pgo.txt)
  message(FATAL_ERROR "the profile ${DIR} this tree was configured with is gone: make it again "
                      "(scripts/pgo-train.sh) or configure without it (-DRR_PGO_USE=)")
endif()
