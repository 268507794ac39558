# SPDX-License-Identifier: MIT
# One INTERFACE target carries every compile setting; every project target links it.
option(PBX_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
# Debug information costs about a third of each compile and most of the link time; CI, which only
# runs the tests, turns it off (.ci/run). Developers and the app keep it (RelWithDebInfo).
option(PBX_DEBUG_INFO "Compile with debug information (-g)" ON)
set(PBX_SANITIZE "" CACHE STRING "Sanitizers to enable, e.g. address,undefined")
# A unity build (CMake's UNITY_BUILD: each target's sources compiled in batches of 8, one compiler
# run per batch) parses the heavy headers (nlohmann/json, Eigen, Qt) once per batch instead of once
# per file: 2.2 to 2.6 times less compile CPU on core's libraries (docs/building.md). A cold build
# (CI's, a fresh machine's) gains; an edit-compile loop loses (one edited file recompiles its
# batch), so it is off by default and scripts/pbx turns it on only where asked (PBX_UNITY_BUILD=ON,
# as .ci/run does).
option(PBX_UNITY_BUILD "Compile each target's sources in batches (a faster cold build)" OFF)
set(CMAKE_UNITY_BUILD ${PBX_UNITY_BUILD})
set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)

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
if(PBX_UNITY_BUILD)
    # In a batch every source is an included file, for which GCC warns about a class whose member's
    # type lives in an anonymous namespace (a header's class would differ between translation
    # units); each source is still one translation unit's own, so the warning does not apply.
    target_compile_options(pbx_options INTERFACE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
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
