# SPDX-License-Identifier: GPL-2.0-or-later
# rr_install_man(PAGE SECTION COMPONENT TARGET): install docs/PAGE.SECTION into
# man/manSECTION, gzip -9n compressed as Debian policy wants when gzip is
# there, plain otherwise.  TARGET names the custom target that compresses it
# (the .deb's payload target lists it).
find_program(RR_GZIP gzip)

function(rr_install_man page section component target)
  set(src ${PROJECT_SOURCE_DIR}/docs/${page}.${section})
  set(dest ${CMAKE_INSTALL_MANDIR}/man${section})
  if(RR_GZIP)
    set(gz ${CMAKE_BINARY_DIR}/man/${page}.${section}.gz)
    add_custom_command(OUTPUT ${gz}
                       COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
                       COMMAND ${RR_GZIP} -9nc ${src} > ${gz}
                       DEPENDS ${src}
                       COMMENT "Compressing the ${page}(${section}) man page")
    add_custom_target(${target} ALL DEPENDS ${gz})
    install(FILES ${gz} DESTINATION ${dest} COMPONENT ${component})
  else()
    add_custom_target(${target})
    install(FILES ${src} DESTINATION ${dest} COMPONENT ${component})
  endif()
endfunction()
