# SPDX-License-Identifier: GPL-2.0-or-later
add_executable(ulb-lint tools/ulb-lint.c tools/dump.c)
target_include_directories(ulb-lint PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)
target_link_libraries(ulb-lint PRIVATE rpcrdma_capture)
