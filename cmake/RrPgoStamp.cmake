# SPDX-License-Identifier: GPL-2.0-or-later
# What a profile says of the tree that trained it (rr-pgo.txt), for
# RrPgo.cmake at configure time and RrPgoPresent.cmake at build time alike.

# The text a training tree writes to rr-pgo.txt.
function(rr_pgo_stamp out generator build_type)
  set(${out} "generator=${generator}\nbuild_type=${build_type}\n" PARENT_SCOPE)
endfunction()

# ${out} set to what dir's rr-pgo.txt says, as "GENERATOR, BUILD TYPE", or
# to "" when it names this generator and build type; carriage returns and
# the last newline (another editor's) do not count.  dir/rr-pgo.txt exists.
function(rr_pgo_stamp_differs out dir generator build_type)
  file(READ ${dir}/rr-pgo.txt trained)
  string(REPLACE "\r" "" trained "${trained}")
  string(STRIP "${trained}" trained)
  rr_pgo_stamp(want "${generator}" "${build_type}")
  string(STRIP "${want}" want)
  if(trained STREQUAL want)
    set(${out} "" PARENT_SCOPE)
  else()
    string(REGEX REPLACE "generator=([^\n]*)\n?build_type=([^\n]*).*" "\\1, \\2" trained "${trained}")
    if(trained STREQUAL "")
      set(trained "an empty rr-pgo.txt")
    endif()
    set(${out} "${trained}" PARENT_SCOPE)
  endif()
endfunction()
