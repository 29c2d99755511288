# What `cmake --install` puts beside the tools and libraries (each directory installs its own
# targets): the CMake package, the pkg-config files, the man pages, the bash and zsh
# completion, and the CPack settings of the Debian packages. The dev component holds what
# only a program built against the libraries needs.
include(CMakePackageConfigHelpers)

set(_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/pmclog)
install(EXPORT pmclogTargets NAMESPACE pmclog:: DESTINATION ${_cmakedir} COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pmclogConfig.cmake.in
  ${PROJECT_BINARY_DIR}/pmclogConfig.cmake INSTALL_DESTINATION ${_cmakedir})
# 0.x: a new minor version may break the API, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pmclogConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pmclogConfig.cmake ${PROJECT_BINARY_DIR}/pmclogConfigVersion.cmake
  DESTINATION ${_cmakedir} COMPONENT dev)

# The prefix is found from where the .pc file is (pkg-config's pcfiledir), so that a
# package built for /usr works under a scratch root too.
file(RELATIVE_PATH PMCLOG_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" PMCLOG_PC_TO_PREFIX "${PMCLOG_PC_TO_PREFIX}")
foreach(_pc pmclog pmcprofile)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${_pc}.pc.in ${PROJECT_BINARY_DIR}/${_pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${_pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
    COMPONENT dev)
endforeach()

set(PMCLOG_TOOLS pmclog-dump pmclog-validate pmclog-write pmclog-record pmclog-report)

# Man pages and changelogs are installed compressed, by `cmake --install` as in the .deb
# (Debian's policy; man-db and mandoc read .gz pages as they are): one tree either way.
find_program(PMCLOG_GZIP gzip REQUIRED)
set(_gzipped "")
function(pmclog_gzip in out)  # IN to OUT (a path in the build tree) at build time
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DGZIP=${PMCLOG_GZIP} -DIN=${in} -DOUT=${out}
            -P ${PROJECT_SOURCE_DIR}/cmake/Gzip.cmake
    DEPENDS ${in} ${PROJECT_SOURCE_DIR}/cmake/Gzip.cmake VERBATIM)
  set(_gzipped ${_gzipped} ${out} PARENT_SCOPE)
endfunction()

# Man pages: mdoc sources in man/ (man-db and mandoc read mdoc).
set(_pages man5/pmclog.5)
if(PMCLOG_BUILD_TOOLS)
  foreach(_t IN LISTS PMCLOG_TOOLS)
    list(APPEND _pages man1/${_t}.1)
  endforeach()
endif()
foreach(_p IN LISTS _pages)
  get_filename_component(_name ${_p} NAME)
  get_filename_component(_section ${_p} DIRECTORY)
  pmclog_gzip(${PROJECT_SOURCE_DIR}/man/${_name} ${PROJECT_BINARY_DIR}/man/${_p}.gz)
  install(FILES ${PROJECT_BINARY_DIR}/man/${_p}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/${_section})
endforeach()

# Each package's /usr/share/doc/PACKAGE (Debian wants one per package, so pmclog-dev has
# its own): the licence in Debian's machine-readable copyright format, made from LICENSE;
# the project's CHANGELOG.md as changelog.gz; and changelog.Debian.gz, the one-entry Debian
# changelog dpkg and lintian read, of PROJECT_VERSION.
file(READ ${PROJECT_SOURCE_DIR}/LICENSE _licence)
string(REGEX MATCH "Copyright \\(c\\) ([^\n]*)" _ "${_licence}")
set(PMCLOG_COPYRIGHT "${CMAKE_MATCH_1}")
string(FIND "${_licence}" "Redistribution" _at)
if(NOT PMCLOG_COPYRIGHT OR _at LESS 0)
  message(FATAL_ERROR "LICENSE: no \"Copyright (c)\" line or no licence text")
endif()
string(SUBSTRING "${_licence}" ${_at} -1 _licence)
string(STRIP "${_licence}" _licence)
# DEP-5 continuation lines: indented by one space, an empty line as " .".
string(REPLACE "\n\n" "\n.\n" _licence "${_licence}")
string(REPLACE "\n" "\n " PMCLOG_LICENCE_TEXT " ${_licence}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/copyright.in ${PROJECT_BINARY_DIR}/deb/copyright @ONLY)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/LICENSE)

# The entry's date: SOURCE_DATE_EPOCH when set, else the last commit's date, so that a
# tree gives the same changelog whenever it is configured (outside git: the time of
# configuring).
set(_epoch "$ENV{SOURCE_DATE_EPOCH}")
if(_epoch STREQUAL "")
  execute_process(COMMAND git -C ${PROJECT_SOURCE_DIR} log -1 --format=%ct
    OUTPUT_VARIABLE _epoch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    set(_epoch "")
  endif()
endif()
set(_saved_epoch "$ENV{SOURCE_DATE_EPOCH}")
set(ENV{SOURCE_DATE_EPOCH} "${_epoch}")  # string(TIMESTAMP) honours it
string(TIMESTAMP PMCLOG_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(ENV{SOURCE_DATE_EPOCH} "${_saved_epoch}")
# The project has no mail address: .invalid (RFC 2606) says so, where lintian takes
# localhost, a host without a domain, for a bogus address (an error).
set(CPACK_PACKAGE_CONTACT "pmclog maintainers <pmclog@pmclog.invalid>")
configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/changelog.Debian.in
  ${PROJECT_BINARY_DIR}/deb/changelog.Debian @ONLY)

pmclog_gzip(${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_BINARY_DIR}/deb/changelog.gz)
pmclog_gzip(${PROJECT_BINARY_DIR}/deb/changelog.Debian ${PROJECT_BINARY_DIR}/deb/changelog.Debian.gz)
foreach(_pkg_component pmclog:runtime pmclog-dev:dev)
  string(REPLACE ":" ";" _pc "${_pkg_component}")
  list(GET _pc 0 _pkg)
  list(GET _pc 1 _component)
  install(FILES ${PROJECT_BINARY_DIR}/deb/copyright ${PROJECT_BINARY_DIR}/deb/changelog.gz
    ${PROJECT_BINARY_DIR}/deb/changelog.Debian.gz
    DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${_pkg} COMPONENT ${_component})
  # What lintian reports and this project accepts, each with its reason.
  if(EXISTS ${PROJECT_SOURCE_DIR}/cmake/deb/${_pkg}.lintian-overrides)
    install(FILES ${PROJECT_SOURCE_DIR}/cmake/deb/${_pkg}.lintian-overrides
      DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME ${_pkg}
      COMPONENT ${_component})
  endif()
endforeach()
add_custom_target(pmclog_compressed_docs ALL DEPENDS ${_gzipped})

# Bash completion: one script, a link per tool (bash-completion loads completions/NAME on
# the first Tab after NAME). zsh reads the same script through bashcompinit.
if(PMCLOG_BUILD_TOOLS)
  set(_bashdir ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  install(FILES ${PROJECT_SOURCE_DIR}/completion/pmclog.bash DESTINATION ${_bashdir}
    RENAME pmclog-dump)
  foreach(_t IN LISTS PMCLOG_TOOLS)
    if(NOT _t STREQUAL pmclog-dump)
      install(CODE "file(CREATE_LINK pmclog-dump
        \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${_bashdir}/${_t}\" SYMBOLIC)")
    endif()
  endforeach()
  configure_file(${PROJECT_SOURCE_DIR}/completion/_pmclog.in ${PROJECT_BINARY_DIR}/_pmclog @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/_pmclog DESTINATION
    ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
endif()

# Debian packages: `cpack -G DEB` in the build directory writes pmclog_VERSION_ARCH.deb
# (tools, shared libraries, man pages, completion) and pmclog-dev_VERSION_ARCH.deb.
# tests/package/check_deb.sh holds them to lintian.
set(CPACK_PACKAGE_NAME pmclog)
set(CPACK_PACKAGE_VENDOR "pmclog project")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The tools and shared objects without their symbols (the static archives keep theirs).
set(CPACK_STRIP_FILES ON)
# Dependencies of the tools and shared objects from dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libpmcprofile.so needs libpmclog.so from the same package (dpkg-shlibdeps runs in the
# package's root, so the folder is relative to it).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS usr/${CMAKE_INSTALL_LIBDIR})
# A shlibs file, so that packages built against ours get a dependency on it.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# ldconfig through dpkg's trigger, as Debian's policy wants, not from maintainer scripts
# (cmake/deb/postinst says why the package has one).
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/cmake/deb/triggers
  ${PROJECT_SOURCE_DIR}/cmake/deb/postinst ${PROJECT_SOURCE_DIR}/cmake/deb/postrm)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME pmclog)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME pmclog-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# The static archives and the CMake package need the -dev packages of what they link.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "pmclog (= ${PROJECT_VERSION}), libboost-dev (>= 1.74), \
zlib1g-dev, libzstd-dev, liblzma-dev, libbz2-dev, libsimdjson-dev, libdw-dev, libelf-dev, pkg-config")
# Each package's own synopsis (the first line) and text, lines under 80 columns. CPack puts
# a non-empty CPACK_PACKAGE_DESCRIPTION_SUMMARY (by default the project's DESCRIPTION)
# before every package's text: both packages would have the same synopsis.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "tools and libraries for FreeBSD hwpmc(4) logs
Tools that read, check, write, record and profile the performance-counter
logs of FreeBSD's hwpmc(4), of every generation and ABI: pmclog-dump prints
them, pmclog-validate checks them, pmclog-write writes them, pmclog-record
records one on Linux with perf_event_open(2), and pmclog-report makes
profiles of them (top, folded stacks, flame graph SVG, pprof, callgraph,
perf script, speedscope).
.
The package also holds the shared libraries libpmclog (the log codec) and
libpmcprofile (the profile engine), the man pages and the bash and zsh
completion.")
set(CPACK_DEBIAN_DEV_DESCRIPTION "development files of the pmclog libraries
Headers, static archives, the CMake package (find_package(pmclog)) and the
pkg-config files of libpmclog, the FreeBSD hwpmc(4) log codec, and of
libpmcprofile, its profile engine.")
include(CPack)
