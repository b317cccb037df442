# SPDX-License-Identifier: GPL-2.0-or-later
# cmake -DDIR=<profile folder> -DGENERATOR=<g> -DBUILD_TYPE=<t> -P RrPgoPresent.cmake:
# fails the build when the profile a tree was configured with is gone, or
# was trained since for another generator or build type (see RrPgo.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/RrPgoStamp.cmake)
if(NOT EXISTS ${DIR}/rr-pgo.txt)
  message(FATAL_ERROR "the profile ${DIR} this tree was configured with is gone: make it again "
                      "(scripts/pgo-train.sh) or configure without it (-DRR_PGO_USE=)")
endif()
rr_pgo_stamp_differs(trained ${DIR} "${GENERATOR}" "${BUILD_TYPE}")
if(trained)
  message(FATAL_ERROR "the profile ${DIR} was trained again for another kind of tree (${trained}), not for "
                      "this one (${GENERATOR}, ${BUILD_TYPE}): train it with scripts/pgo-train.sh --like "
                      "this tree, or configure without it (-DRR_PGO_USE=)")
endif()
