# SPDX-License-Identifier: MIT
# pbx_add_qtest(NAME core.filters SOURCES tst_x.cpp LIBS pbx_core [GUI])
# One Qt Test class per executable. GUI marks a test that creates widgets: only those run on the
# offscreen platform, save screenshots in <build>/screenshots and carry the extra label "gui"
# (ctest -L gui / -LE gui); the others get no platform at all, so a stray QApplication fails loudly.

# Test executables share two precompiled headers (Qt Test, nlohmann/json, the standard library; the
# GUI group adds Qt Widgets): parsing those headers was about half of each test's compile time.
# A precompiled header is reused only by targets compiled with the same macros, so each test folder
# has a host target per group with the group's libraries (Qt Test defines the folder as
# QT_TESTCASE_SOURCEDIR), and QT_TESTCASE_BUILDDIR is one folder for all tests.
# GCC refuses a header built with other macros (-Winvalid-pch, an error under -Werror), so a test
# that drifts out of its group fails to build instead of silently parsing everything again.
set(PBX_TEST_PCH_COMMON <QtTest/QtTest> <nlohmann/json.hpp> <algorithm> <cmath> <cstdint> <filesystem>
    <fstream> <functional> <map> <memory> <optional> <random> <set> <sstream> <string> <string_view>
    <vector>)
function(pbx_test_pch_host host group)
    if(TARGET ${host})
        return()
    endif()
    file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/tests/${host}.cpp" CONTENT "// precompiled-header host\n")
    add_library(${host} OBJECT "${CMAKE_BINARY_DIR}/tests/${host}.cpp")
    set_target_properties(${host} PROPERTIES AUTOMOC OFF QT_TESTCASE_BUILDDIR "${CMAKE_BINARY_DIR}/tests")
    target_compile_definitions(${host} PRIVATE
        PBX_SOURCE_DIR="${CMAKE_SOURCE_DIR}" PBX_ORACLE_DIR="${CMAKE_SOURCE_DIR}/tests/data/oracle")
    if(group STREQUAL "gui")
        target_link_libraries(${host} PRIVATE pbx_ui Qt6::Test pbx_options)
        target_precompile_headers(${host} PRIVATE ${PBX_TEST_PCH_COMMON} <QtWidgets/QtWidgets>)
    else()
        target_link_libraries(${host} PRIVATE pbx_core Qt6::Test pbx_options)
        target_precompile_headers(${host} PRIVATE ${PBX_TEST_PCH_COMMON})
    endif()
endfunction()

function(pbx_add_qtest)
    cmake_parse_arguments(T "GUI" "NAME;TIMEOUT" "SOURCES;LIBS" ${ARGN})
    string(REPLACE "." "_" exe "tst_${T_NAME}")
    add_executable(${exe} ${T_SOURCES})
    target_link_libraries(${exe} PRIVATE ${T_LIBS} Qt6::Test pbx_options)
    target_compile_definitions(${exe} PRIVATE
        PBX_SOURCE_DIR="${CMAKE_SOURCE_DIR}" PBX_ORACLE_DIR="${CMAKE_SOURCE_DIR}/tests/data/oracle")
    set(group core)
    if("pbx_ui" IN_LIST T_LIBS)
        set(group gui)
    endif()
    get_filename_component(area "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
    set(host pbx_test_pch_${area}_${group})
    pbx_test_pch_host(${host} ${group})
    set_target_properties(${exe} PROPERTIES QT_TESTCASE_BUILDDIR "${CMAKE_BINARY_DIR}/tests")
    target_precompile_headers(${exe} REUSE_FROM ${host})
    add_test(NAME ${T_NAME} COMMAND ${exe})
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT 300)
    endif()
    string(REGEX MATCH "^[a-z]+" label "${T_NAME}")
    # Each test has a home of its own (QStandardPaths' test mode writes under $HOME/.qttest; settings,
    # recent files and journals under the XDG folders), so tests can run in parallel (ctest -j).
    set(home "${CMAKE_BINARY_DIR}/test-home/${T_NAME}")
    file(MAKE_DIRECTORY "${home}/config" "${home}/data" "${home}/cache")
    set(env "HOME=${home};XDG_CONFIG_HOME=${home}/config;XDG_DATA_HOME=${home}/data;XDG_CACHE_HOME=${home}/cache")
    set(labels ${label})
    if(T_GUI)
        list(APPEND env "QT_QPA_PLATFORM=offscreen" "PBX_SCREENSHOT_DIR=${CMAKE_BINARY_DIR}/screenshots")
        list(APPEND labels gui)
    endif()
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${env}" TIMEOUT ${T_TIMEOUT} LABELS "${labels}")
endfunction()

# A test added with add_test that reuses a pbx_add_qtest executable and copies its environment
# (e.g. the same test on another screen) gets a home of its own too, so the two can run together.
function(pbx_own_home name)
    set(home "${CMAKE_BINARY_DIR}/test-home/${name}")
    file(MAKE_DIRECTORY "${home}/config" "${home}/data" "${home}/cache")
    set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT
        "HOME=${home}" "XDG_CONFIG_HOME=${home}/config" "XDG_DATA_HOME=${home}/data" "XDG_CACHE_HOME=${home}/cache")
endfunction()
