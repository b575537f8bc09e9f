# Release linkage and the build facts `version` prints.
#
# ICHECK_STATIC links kubectl-dynamo_icheck fully static (glibc, libstdc++, Boost, yaml-cpp, RE2
# from Debian's .a files) so one archive runs on any Linux of its architecture, as krew users
# expect.
option(ICHECK_STATIC "Link kubectl-dynamo_icheck fully static (release builds)" OFF)

if(ICHECK_STATIC)
  set(Boost_USE_STATIC_LIBS ON)
  # Debian's yaml-cpp CMake package only describes the shared library; take the archive beside it.
  # Its version comes from the pkg-config file beside the archive.
  find_library(ICHECK_YAML_CPP_ARCHIVE NAMES libyaml-cpp.a REQUIRED)
  get_filename_component(_icheck_libdir ${ICHECK_YAML_CPP_ARCHIVE} DIRECTORY)
  file(STRINGS ${_icheck_libdir}/pkgconfig/yaml-cpp.pc _icheck_pc REGEX "^Version:")
  string(REGEX REPLACE "^Version: *" "" yaml-cpp_VERSION "${_icheck_pc}")
  set(ICHECK_YAML ${ICHECK_YAML_CPP_ARCHIVE})
  set(ICHECK_LINKAGE "static")
else()
  find_package(yaml-cpp REQUIRED)
  set(ICHECK_YAML yaml-cpp)
  set(ICHECK_LINKAGE "dynamic")
endif()

# RE2 matches the rows' patterns over text from outside in linear time (DESIGN.md): Debian's
# libre2-dev (2022-06-01, no abseil); its archive when linking static. One interface target.
find_package(Threads REQUIRED)
find_path(ICHECK_RE2_INCLUDE_DIR re2/re2.h REQUIRED)
if(ICHECK_STATIC)
  find_library(ICHECK_RE2_LIBRARY NAMES libre2.a REQUIRED)
else()
  find_library(ICHECK_RE2_LIBRARY NAMES re2 REQUIRED)
endif()
add_library(icheck_re2 INTERFACE)
target_include_directories(icheck_re2 SYSTEM INTERFACE ${ICHECK_RE2_INCLUDE_DIR})
target_link_libraries(icheck_re2 INTERFACE ${ICHECK_RE2_LIBRARY} Threads::Threads)

if(NOT ICHECK_COMMIT)
  execute_process(COMMAND git rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  OUTPUT_VARIABLE ICHECK_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(NOT ICHECK_COMMIT)
    set(ICHECK_COMMIT "unknown")
  endif()
endif()

# Go's names, as krew's os/arch selectors spell them.
string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _icheck_cpu)
if(_icheck_cpu MATCHES "^(x86_64|amd64)$")
  set(_icheck_arch amd64)
elseif(_icheck_cpu MATCHES "^(aarch64|arm64)$")
  set(_icheck_arch arm64)
else()
  set(_icheck_arch ${_icheck_cpu})
endif()
string(TOLOWER "${CMAKE_SYSTEM_NAME}/${_icheck_arch}" ICHECK_PLATFORM)

function(icheck_build_info target)
  set(ICHECK_YAML_CPP_VERSION ${yaml-cpp_VERSION})
  configure_file(${CMAKE_SOURCE_DIR}/plugin/build_info.hpp.in
                 ${CMAKE_BINARY_DIR}/generated/build_info.hpp @ONLY)
  target_include_directories(${target} PRIVATE ${CMAKE_BINARY_DIR}/generated)
  if(ICHECK_STATIC)
    target_link_options(${target} PRIVATE -static)
  endif()
endfunction()
