# SPDX-License-Identifier: GPL-2.0-or-later
# cmake -DDIR=<profile folder> -DGENERATOR=<g> -DBUILD_TYPE=<t> -P RrPgoPresent.cmake:
# fails the build when the profile a tree was configured with is gone, or
# was trained since for another generator or build type (see RrPgo.cmake).
if(NOT EXISTS ${DIR}/rr-pgo.txt)
  message(FATAL_ERROR "the profile ${DIR} this tree was configured with is gone: make it again "
                      "(scripts/pgo-train.sh) or configure without it (-DRR_PGO_USE=)")
endif()
file(READ ${DIR}/rr-pgo.txt trained)
string(REPLACE "\r" "" trained "${trained}")
string(STRIP "${trained}" trained)
if(NOT trained STREQUAL "generator=${GENERATOR}\nbuild_type=${BUILD_TYPE}")
  string(REPLACE "\n" " " trained "${trained}")
  message(FATAL_ERROR "the profile ${DIR} was trained again for another kind of tree (${trained}), not for "
                      "this one (${GENERATOR}, ${BUILD_TYPE}): train it with scripts/pgo-train.sh --like "
                      "this tree, or configure without it (-DRR_PGO_USE=)")
endif()
