# SPDX-License-Identifier: MIT
# pbx_add_qtest(NAME core.filters SOURCES tst_x.cpp LIBS pbx_core [GUI])
# One Qt Test class per executable. GUI marks a test that creates widgets: only those run on the
# offscreen platform, save screenshots in <build>/screenshots and carry the extra label "gui"
# (ctest -L gui / -LE gui); the others get no platform at all, so a stray QApplication fails loudly.

# Test executables share two precompiled headers (Qt Test, nlohmann/json, the standard library; the
# GUI group adds Qt Widgets): parsing those headers was about half of each test's compile time.
# A precompiled header is reused only by targets compiled with the same macros. Qt Test defines
# QT_TESTCASE_SOURCEDIR as each target's own folder (for QFINDTESTDATA, which no test uses), which
# would need one header per test folder (17 of them, 12-27 s of CPU and 260-330 MB each); here it
# is one folder for all tests, as QT_TESTCASE_BUILDDIR is, so there are two, one per group.
# GCC refuses a header built with other macros (-Winvalid-pch, an error under -Werror), so a test
# that drifts out of its group fails to build instead of silently parsing everything again.
get_target_property(pbx_qttest_definitions Qt6::Test INTERFACE_COMPILE_DEFINITIONS)
list(TRANSFORM pbx_qttest_definitions REPLACE "^QT_TESTCASE_SOURCEDIR=.*$"
     "QT_TESTCASE_SOURCEDIR=\"${CMAKE_SOURCE_DIR}/tests\"")
set_property(TARGET Qt6::Test PROPERTY INTERFACE_COMPILE_DEFINITIONS "${pbx_qttest_definitions}")
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
    set(host pbx_test_pch_${group})
    pbx_test_pch_host(${host} ${group})
    set_target_properties(${exe} PROPERTIES QT_TESTCASE_BUILDDIR "${CMAKE_BINARY_DIR}/tests")
    target_precompile_headers(${exe} REUSE_FROM ${host})
    # AUTOMOC's mocs_compilation.cpp is empty (each test includes its own .moc), but with the
    # precompiled header forced in it took 4-5 s of CPU per test to load 260-330 MB for nothing.
    set_source_files_properties("${CMAKE_CURRENT_BINARY_DIR}/${exe}_autogen/mocs_compilation.cpp"
        PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
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
