# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package: `cpack -G DEB` makes one rpcrdma-toolkit_<version>_<arch>.deb
# holding ulb-lint (component cli), the Wireshark plugin (component plugin) in
# Wireshark's GLOBAL plugin folder, and the man pages.
#
# Package from a build of its own, configured for it:
#
#   cmake -S . -B build-deb -DRR_PLUGIN_INSTALL=global -DCMAKE_INSTALL_PREFIX=/usr \
#         -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-deb -j2
#   (cd build-deb && cpack -G DEB)
#
# RR_PLUGIN_INSTALL=personal (the default, for developers) installs the plugin
# into the packager's own ~/.local, never into the package: cpack refuses to
# make a .deb from such a build when the plugin is built.
# tests/package/check_deb.sh builds the package that way and installs it into
# a clean Debian 12 chroot.

set(RR_DEB_MAINTAINER "rpcrdma-toolkit developers <rpcrdma-toolkit@invalid>"
    CACHE STRING "Maintainer field of the .deb (Name <address>)")

# --- what the package needs besides the install rules of the targets -------

set(_rr_plugin_depends "")
set(_rr_pkg_problem "")
if(TARGET rpcrdma_plugin)
  # The plugin's man page, installed with the plugin.
  rr_install_man(rpcrdma-plugin 7 man rpcrdma-plugin-man)

  # Wireshark loads a plugin only into the minor version it was built for,
  # and the plugin links libwireshark: depend on that library's package,
  # within that minor version.  find_package ran in plugin/, whose variables
  # this scope does not see; WiresharkConfig.cmake is cheap to read again.
  find_package(Wireshark 4.0 QUIET)
  if(Wireshark_FOUND)
    set(_ws_lib libwireshark${Wireshark_MAJOR_VERSION}) # overwritten below from the SONAME
    get_target_property(_ws_cfgs epan IMPORTED_CONFIGURATIONS)
    foreach(_cfg IN LISTS _ws_cfgs)
      get_target_property(_ws_soname epan IMPORTED_SONAME_${_cfg})
      if(_ws_soname MATCHES "^libwireshark\\.so\\.([0-9]+)$")
        set(_ws_lib libwireshark${CMAKE_MATCH_1})
        break()
      endif()
    endforeach()
    math(EXPR _ws_next_minor "${Wireshark_MINOR_VERSION} + 1")
    set(_ws_lo "${Wireshark_MAJOR_VERSION}.${Wireshark_MINOR_VERSION}")
    set(_ws_hi "${Wireshark_MAJOR_VERSION}.${_ws_next_minor}~")
    set(_rr_plugin_depends "${_ws_lib} (>= ${_ws_lo}), ${_ws_lib} (<< ${_ws_hi})")
  else()
    message(WARNING "rpcrdma: the plugin is built but Wireshark's CMake config was not found again: the .deb will not state its libwireshark version range")
  endif()

  if(NOT RR_PLUGIN_INSTALL STREQUAL "global")
    set(_rr_pkg_problem "the plugin is built with RR_PLUGIN_INSTALL=${RR_PLUGIN_INSTALL}: cpack would put it in the packager's home, not in the .deb. Configure a separate build with -DRR_PLUGIN_INSTALL=global -DCMAKE_INSTALL_PREFIX=/usr for packaging (see cmake/Packaging.cmake).")
    message(STATUS "rpcrdma: .deb packaging needs a build configured with -DRR_PLUGIN_INSTALL=global -DCMAKE_INSTALL_PREFIX=/usr (cpack refuses this one, RR_PLUGIN_INSTALL=${RR_PLUGIN_INSTALL})")
  endif()
else()
  message(STATUS "rpcrdma: the .deb of this build holds ulb-lint only (no rpcrdma_plugin target)")
endif()
if(RR_PLUGIN_INSTALL STREQUAL "global" AND NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  message(WARNING "rpcrdma: RR_PLUGIN_INSTALL=global with CMAKE_INSTALL_PREFIX=${CMAKE_INSTALL_PREFIX}: "
                  "`cmake --install` puts the plugin under ${CMAKE_INSTALL_PREFIX}, where Wireshark does not look; "
                  "the .deb is unaffected (it always installs under /usr). Use -DCMAKE_INSTALL_PREFIX=/usr.")
endif()

# Debian policy: /usr/share/doc/<package>/copyright.
file(WRITE ${CMAKE_BINARY_DIR}/deb/copyright
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: rpcrdma-toolkit

Files: *
Copyright: the rpcrdma-toolkit authors
License: GPL-2.0-or-later
 On Debian systems, the full text of the GNU General Public License
 version 2 can be found in /usr/share/common-licenses/GPL-2.
")
install(FILES ${CMAKE_BINARY_DIR}/deb/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT cli)

# Everything the package holds, and nothing else (no tests): with
# -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON, `cmake --build . --target deb-payload`
# then `cpack -G DEB` packages without building the whole tree.
add_custom_target(deb-payload)
foreach(_t ulb-lint ulb-lint-man rpcrdma_plugin rpcrdma-plugin-man rpcrdma-agent rpcrdma-agent-man)
  if(TARGET ${_t})
    add_dependencies(deb-payload ${_t})
  endif()
endforeach()

# --- CPack --------------------------------------------------------------------

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rpcrdma-toolkit)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${RR_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "RPC-over-RDMA (RFC 8166/8267) linter and Wireshark plugin")
set(CPACK_PACKAGE_DESCRIPTION
"ulb-lint reads pcap/pcapng captures of NFS over RPC-over-RDMA version 1
(InfiniBand, RoCE, iWARP), rebuilds every RPC message and checks the traffic
against RFC 8166 and the NFS Upper-Layer Binding (RFC 8267).
The Wireshark plugin (rpcrdma.so, in Wireshark's global plugin folder)
dissects the same traffic, hands the rebuilt messages to Wireshark's RPC and
NFS dissectors and reports the same findings as expert infos.
rpcrdma-agent drives test transfers over rxe and siw (rdma-core), captures
them and verifies the decode against what it really sent.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RR_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
find_program(RR_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(RR_DPKG_SHLIBDEPS)
  # Shared-library dependencies of ulb-lint and the plugin (libc6, libglib2.0-0,
  # libpcap0.8, libwireshark16 ...), from the libraries' shlibs/symbols files.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_rr_plugin_depends}")
else()
  message(STATUS "rpcrdma: dpkg-shlibdeps not found (dpkg-dev): the .deb's Depends are written by hand")
  set(_deps "libc6, libglib2.0-0, libpcap0.8")
  if(_rr_plugin_depends)
    string(APPEND _deps ", ${_rr_plugin_depends}")
  endif()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_deps}")
endif()
if(TARGET rpcrdma_plugin)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS tshark)
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS wireshark)
endif()
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/")

# Read by cpack for each generator before it installs anything: refuse a
# .deb whose plugin would land in the packager's home.
set(RR_PKG_PROBLEM "${_rr_pkg_problem}")
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/CPackProjectConfig.cmake CONTENT
[[# Generated by cmake/Packaging.cmake.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT "@RR_PKG_PROBLEM@" STREQUAL "")
  message(FATAL_ERROR "rpcrdma: @RR_PKG_PROBLEM@")
endif()
]] @ONLY)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/CPackProjectConfig.cmake)

include(CPack)

# What tests/package/check_deb.sh expects to find in the .deb.
set(_rr_env "RR_PKG_NAME='${CPACK_PACKAGE_NAME}'\nRR_PKG_VERSION='${PROJECT_VERSION}'\n")
if(TARGET rpcrdma_plugin AND Wireshark_FOUND)
  string(APPEND _rr_env "RR_PKG_PLUGIN=1\n"
         "RR_PKG_PLUGIN_DIR='${CPACK_PACKAGING_INSTALL_PREFIX}/${Wireshark_PLUGIN_LIBDIR}/epan'\n"
         "RR_PKG_PLUGIN_DEPENDS='${_rr_plugin_depends}'\n")
elseif(TARGET rpcrdma_plugin)
  string(APPEND _rr_env "RR_PKG_PLUGIN=1\nRR_PKG_PLUGIN_DIR=''\nRR_PKG_PLUGIN_DEPENDS=''\n")
else()
  string(APPEND _rr_env "RR_PKG_PLUGIN=0\n")
endif()
if(TARGET rpcrdma-agent)
  string(APPEND _rr_env "RR_PKG_AGENT=1\n")
else()
  string(APPEND _rr_env "RR_PKG_AGENT=0\n")
endif()
file(WRITE ${CMAKE_BINARY_DIR}/deb/package.env "${_rr_env}")
