# Cross toolchain for the linux/arm64 release: Debian's g++-aarch64-linux-gnu, with the arm64
# libraries installed through multiarch (/usr/lib/aarch64-linux-gnu). ICHECK_ARM64_SYSROOT adds
# libraries extracted from arm64 .debs that cannot be co-installed (libyaml-cpp-dev).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
if(ICHECK_ARM64_SYSROOT)
  list(APPEND CMAKE_PREFIX_PATH ${ICHECK_ARM64_SYSROOT}/usr)
endif()
