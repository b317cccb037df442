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

# `cmake --install` / cpack: the CLI and its man page (component cli).
install(TARGETS ulb-lint RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
rr_install_man(ulb-lint 1 cli ulb-lint-man)
