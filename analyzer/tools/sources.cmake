# SPDX-License-Identifier: GPL-2.0-or-later
add_executable(ulb-lint tools/ulb-lint.c tools/dump.c tools/lint_report.c tools/lint_summary.c)
target_include_directories(ulb-lint PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)
target_link_libraries(ulb-lint PRIVATE rpcrdma_capture)

# docs/rules.md is generated from the rule table; `rules_doc_current` checks the committed copy.
add_executable(rr-rules-doc tools/rules-doc.c)
target_link_libraries(rr-rules-doc PRIVATE rpcrdma)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/rules.md
                   COMMAND rr-rules-doc > ${CMAKE_BINARY_DIR}/rules.md
                   DEPENDS rr-rules-doc ${CMAKE_CURRENT_SOURCE_DIR}/include/rpcrdma/rules.def
                   COMMENT "Generating rules.md from the rule table")
add_custom_target(rules-doc ALL DEPENDS ${CMAKE_BINARY_DIR}/rules.md)
add_custom_target(update-rules-doc
                  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_BINARY_DIR}/rules.md ${PROJECT_SOURCE_DIR}/docs/rules.md
                  DEPENDS rules-doc)

# `cmake --install` / cpack: the CLI and its man page (component cli).  The
# man page is installed gzip -9n compressed, as Debian policy wants, when
# gzip is there; plain otherwise.
install(TARGETS ulb-lint RUNTIME DESTINATION bin COMPONENT cli)
find_program(RR_GZIP gzip)
if(RR_GZIP)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/man/ulb-lint.1.gz
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
                     COMMAND ${RR_GZIP} -9nc ${PROJECT_SOURCE_DIR}/docs/ulb-lint.1 > ${CMAKE_BINARY_DIR}/man/ulb-lint.1.gz
                     DEPENDS ${PROJECT_SOURCE_DIR}/docs/ulb-lint.1
                     COMMENT "Compressing the ulb-lint man page")
  add_custom_target(ulb-lint-man ALL DEPENDS ${CMAKE_BINARY_DIR}/man/ulb-lint.1.gz)
  install(FILES ${CMAKE_BINARY_DIR}/man/ulb-lint.1.gz DESTINATION share/man/man1 COMPONENT cli)
else()
  install(FILES ${PROJECT_SOURCE_DIR}/docs/ulb-lint.1 DESTINATION share/man/man1 COMPONENT cli)
endif()
