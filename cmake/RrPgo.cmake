# SPDX-License-Identifier: GPL-2.0-or-later
# Profile-guided optimisation of ulb-lint's engine, in two trees:
# scripts/pgo-train.sh configures an instrumented tree with RR_PGO_GENERATE
# set to a folder, builds ulb-lint there and runs it on the bundled captures;
# the optimised tree is then configured with RR_PGO_USE set to that folder
# (scripts/test.sh and scripts/demo.sh do both).
#
# GCC names each profile file after its object's path below the build tree
# (-fprofile-prefix-path), and keys a static function's profile on the
# object's path as the compiler is given it: the two trees must be of the
# same sources, generator and build type.  The training tree writes them to
# rr-pgo.txt in the folder; a tree whose own differ, or a folder without it,
# builds without the profile and says why.
#
# Sets rr_pgo_flags (the analyzer's compile options, analyzer/CMakeLists.txt),
# rr_pgo_mode (generate, use or empty) and rr_pgo_use_active (the folder used).
set(RR_PGO_GENERATE "" CACHE PATH "Instrument the analyzer, writing its profile to this folder (scripts/pgo-train.sh)")
set(RR_PGO_USE "" CACHE PATH "Optimise the analyzer with the profile in this folder (made by scripts/pgo-train.sh)")
set(rr_pgo_flags "")
set(rr_pgo_mode "")
set(rr_pgo_use_active "")
set(rr_pgo_why "")
include(${CMAKE_CURRENT_LIST_DIR}/RrPgoStamp.cmake)
get_filename_component(rr_real_binary_dir ${CMAKE_BINARY_DIR} REALPATH)

if(NOT RR_PGO_GENERATE AND NOT RR_PGO_USE)
  return()
elseif(RR_PGO_GENERATE AND RR_PGO_USE)
  message(FATAL_ERROR "RR_PGO_GENERATE and RR_PGO_USE exclude each other: train in one tree, use in another")
elseif(NOT IS_ABSOLUTE "${RR_PGO_GENERATE}${RR_PGO_USE}")
  set(rr_pgo_why "its folder must be an absolute path, not ${RR_PGO_GENERATE}${RR_PGO_USE}")
elseif(RR_SANITIZE OR RR_TSAN OR RR_FUZZ OR NOT RR_OPTIMIZE OR NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
  set(rr_pgo_why "it is for GCC's optimised build alone")
elseif(NOT CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo)$")
  set(rr_pgo_why "it is for the Release and RelWithDebInfo builds alone (a multi-configuration generator has no one build type)")
elseif(CMAKE_GENERATOR MATCHES "Ninja" AND NOT rr_real_binary_dir STREQUAL CMAKE_BINARY_DIR)
  # Ninja runs the compiler in the build tree as the kernel names it, so the
  # objects' paths would not begin with this one, reached through a link.
  set(rr_pgo_why "with Ninja the build tree must not be reached through a symbolic link (use ${rr_real_binary_dir})")
elseif(RR_PGO_GENERATE)
  set(rr_pgo_mode generate)
  file(MAKE_DIRECTORY ${RR_PGO_GENERATE})
  rr_pgo_stamp(rr_pgo_stamp "${CMAKE_GENERATOR}" "${CMAKE_BUILD_TYPE}")
  file(WRITE ${RR_PGO_GENERATE}/rr-pgo.txt "${rr_pgo_stamp}")
  # atomic counters: ulb-lint --jobs counts from several threads at once
  set(rr_pgo_flags -fprofile-generate=${RR_PGO_GENERATE} -fprofile-update=atomic
                   -fprofile-prefix-path=${CMAKE_BINARY_DIR})
  add_link_options(-fprofile-generate=${RR_PGO_GENERATE})
  # The counters are placed at compile time: linking the training build
  # without link-time optimisation changes nothing in its profile.
  set(CMAKE_INTERPROCEDURAL_OPTIMIZATION_RELEASE OFF)
  set(CMAKE_INTERPROCEDURAL_OPTIMIZATION_RELWITHDEBINFO OFF)
elseif(NOT EXISTS ${RR_PGO_USE}/rr-pgo.txt)
  set(rr_pgo_why "${RR_PGO_USE} holds no profile made by scripts/pgo-train.sh (no rr-pgo.txt)")
else()
  rr_pgo_stamp_differs(rr_pgo_trained ${RR_PGO_USE} "${CMAKE_GENERATOR}" "${CMAKE_BUILD_TYPE}")
  if(rr_pgo_trained)
    get_filename_component(rr_pgo_tree ${RR_PGO_USE} DIRECTORY)
    set(rr_pgo_why "it was trained as ${rr_pgo_trained}, and this tree is ${CMAKE_GENERATOR}, "
                   "${CMAKE_BUILD_TYPE}: train for it with scripts/pgo-train.sh --like ${CMAKE_BINARY_DIR} TREE "
                   "(a tree of its own: ${rr_pgo_tree} is another tree's)")
    string(JOIN "" rr_pgo_why ${rr_pgo_why})
  else()
    set(rr_pgo_mode use)
    set(rr_pgo_use_active ${RR_PGO_USE})
    # Code the training never ran is optimised as without a profile
    # (partial training), not for size; a file with no profile is no warning.
    # A function edited since the training is built without its profile, with
    # a warning that the profile is out of date, not an error: train again.
    set(rr_pgo_flags -fprofile-use=${RR_PGO_USE} -fprofile-partial-training
                     -fprofile-prefix-path=${CMAKE_BINARY_DIR} -Wno-missing-profile
                     -Wno-error=coverage-mismatch)
    # The folder must still be there, of the same kind, when the analyzer is
    # compiled: without it GCC would build without the profile and say
    # nothing; retrained for another kind of tree, it would fail.
    add_custom_target(rr_pgo_profile_present
                      COMMAND ${CMAKE_COMMAND} -DDIR=${RR_PGO_USE} "-DGENERATOR=${CMAKE_GENERATOR}"
                              -DBUILD_TYPE=${CMAKE_BUILD_TYPE} -P ${CMAKE_CURRENT_LIST_DIR}/RrPgoPresent.cmake
                      VERBATIM)
  endif()
endif()
if(rr_pgo_why)
  message(WARNING "profile-guided optimisation is off: ${rr_pgo_why}")
endif()
