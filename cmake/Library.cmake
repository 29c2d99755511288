# pmclog_library(NAME [PUBLIC libs...] [PRIVATE libs...] [STATIC_DEPS libs...] [SHARED_DEPS libs...])
#
# The two libraries (pmclog, pmcprofile) are built the same way: the sources in src/ compiled
# once, position-independent, then linked twice: NAME, the static archive the tools and tests
# link (exported as pmclog::NAME_static), and NAME_shared, libNAME.so (exported as
# pmclog::NAME). While the major version is 0 any minor release may change the ABI, so the
# SONAME carries major.minor. STATIC_DEPS and SHARED_DEPS are the public dependencies of each
# flavour, so that each links the same flavour of the codec. Headers come from include/NAME.
function(pmclog_library name)
  cmake_parse_arguments(PARSE_ARGV 1 L "" "" "PUBLIC;PRIVATE;STATIC_DEPS;SHARED_DEPS")
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/src/*.cpp)
  add_library(${name}_objects OBJECT ${sources})
  set_target_properties(${name}_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name}_objects PUBLIC ${dir}/include)
  target_compile_features(${name}_objects PUBLIC cxx_std_20)
  target_link_libraries(${name}_objects PRIVATE ${L_PUBLIC} ${L_PRIVATE} ${L_STATIC_DEPS})

  add_library(${name} STATIC $<TARGET_OBJECTS:${name}_objects>)
  add_library(pmclog::${name}_static ALIAS ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${name}_static)
  add_library(${name}_shared SHARED $<TARGET_OBJECTS:${name}_objects>)
  set_target_properties(${name}_shared PROPERTIES OUTPUT_NAME ${name} EXPORT_NAME ${name}
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  foreach(t ${name} ${name}_shared)
    target_include_directories(${t} PUBLIC
      $<BUILD_INTERFACE:${dir}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_compile_features(${t} PUBLIC cxx_std_20)
    target_link_libraries(${t} PUBLIC ${L_PUBLIC} PRIVATE ${L_PRIVATE})
  endforeach()
  target_link_libraries(${name} PUBLIC ${L_STATIC_DEPS})
  target_link_libraries(${name}_shared PUBLIC ${L_SHARED_DEPS})

  install(TARGETS ${name} ${name}_shared EXPORT pmclogTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
  install(DIRECTORY ${dir}/include/${name} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
endfunction()
