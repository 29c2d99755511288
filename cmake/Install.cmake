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

# Man pages: mdoc sources in man/, installed as they are (man-db and mandoc read mdoc).
if(PMCLOG_BUILD_TOOLS)
  foreach(_t IN LISTS PMCLOG_TOOLS)
    install(FILES ${PROJECT_SOURCE_DIR}/man/${_t}.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endforeach()
endif()
install(FILES ${PROJECT_SOURCE_DIR}/man/pmclog.5 DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)

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
set(CPACK_PACKAGE_NAME pmclog)
set(CPACK_PACKAGE_VENDOR "pmclog project")
set(CPACK_PACKAGE_CONTACT "pmclog maintainers <pmclog@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Tools and libraries for FreeBSD hwpmc(4) logs")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Dependencies of the tools and shared objects from dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libpmcprofile.so needs libpmclog.so from the same package (dpkg-shlibdeps runs in the
# package's root, so the folder is relative to it).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS usr/${CMAKE_INSTALL_LIBDIR})
# A shlibs file, so that packages built against ours get a dependency on it.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME pmclog)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME pmclog-dev)
# The static archives and the CMake package need the -dev packages of what they link.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "pmclog (= ${PROJECT_VERSION}), libboost-dev (>= 1.74), \
zlib1g-dev, libzstd-dev, liblzma-dev, libbz2-dev, libsimdjson-dev, libdw-dev, libelf-dev, pkg-config")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "pmclog-dump, -validate, -write, -record, -report, \
the shared libraries, man pages and shell completion")
set(CPACK_COMPONENT_DEV_DESCRIPTION "Headers, static libraries, CMake and pkg-config files")
include(CPack)
