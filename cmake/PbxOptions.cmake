# SPDX-License-Identifier: MIT
# One INTERFACE target carries every compile setting; every project target links it.
option(PBX_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
# Debug information costs about a third of each compile and most of the link time; CI, which only
# runs the tests, turns it off (.ci/run). Developers and the app keep it (RelWithDebInfo).
option(PBX_DEBUG_INFO "Compile with debug information (-g)" ON)
set(PBX_SANITIZE "" CACHE STRING "Sanitizers to enable, e.g. address,undefined")

add_library(pbx_options INTERFACE)
target_compile_features(pbx_options INTERFACE cxx_std_20)
target_include_directories(pbx_options INTERFACE "${CMAKE_SOURCE_DIR}")
target_compile_options(pbx_options INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
    -Wsuggest-override
    $<$<CXX_COMPILER_ID:GNU>:-Wduplicated-cond> $<$<CXX_COMPILER_ID:GNU>:-Wlogical-op>) # GCC-only warnings
if(PBX_WARNINGS_AS_ERRORS)
    target_compile_options(pbx_options INTERFACE -Werror)
endif()
if(NOT PBX_DEBUG_INFO)
    target_compile_options(pbx_options INTERFACE -g0) # after the build type's -g, so it wins
endif()
target_compile_definitions(pbx_options INTERFACE
    QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_DISABLE_DEPRECATED_BEFORE=0x060400)
if(PBX_SANITIZE)
    target_compile_options(pbx_options INTERFACE -fsanitize=${PBX_SANITIZE} -fno-omit-frame-pointer)
    target_link_options(pbx_options INTERFACE -fsanitize=${PBX_SANITIZE})
endif()
