# SPDX-License-Identifier: MIT
# pbx_add_qtest(NAME core.filters SOURCES tst_x.cpp LIBS pbx_core [GUI] [CLI] [STANDALONE]
#               [TIMEOUT s] [DEFINITIONS d...] [OPTIONS o...])
# One Qt Test class per ctest test, run in a process of its own. GUI marks a test that creates
# widgets: only those run on the offscreen platform, save screenshots in <build>/screenshots and
# carry the extra label "gui" (ctest -L gui / -LE gui); the others get no platform at all, so a
# stray QApplication fails loudly. CLI gives the test PBX_CLI, the path of pbx-cli, and builds
# pbx-cli first.
#
# Test bundles. The classes of one folder and group (core or gui) are compiled into one executable,
# tst_<folder>_<group> (tst_ui_gui, tst_cli_core, ...), whose first argument names the class to run
# (tests/qtest_bundle.h, tests/test_main.cpp); ctest runs `tst_ui_gui TestMainWindow` for ui.mainwindow.
# Each test executable cost a load of the precompiled header (3.4 s of CPU for an empty source, of
# which 1.7 s system time) and a link (0.5-2.2 s): with 140 classes that was most of a cold build.
# In a unity build (PBX_UNITY_BUILD) a bundle's sources are compiled 8 to a batch, so test sources
# must not define the same file-local name as another source of their folder. DEFINITIONS, OPTIONS
# and LIBS apply to the whole bundle. STANDALONE keeps a test in an executable of its own,
# tst_<name with _ for .> (for a test with its own main(), run again with other arguments).

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
# Last: QTEST_MAIN registers the class in its folder's bundle instead of defining main(); the
# meta-types tests pass through QFETCH are declared once, before any source of a batch uses them.
set(PBX_TEST_PCH_BUNDLE "${CMAKE_SOURCE_DIR}/tests/qtest_bundle.h" "${CMAKE_SOURCE_DIR}/tests/test_metatypes.h")
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
        target_precompile_headers(${host} PRIVATE ${PBX_TEST_PCH_COMMON} <QtWidgets/QtWidgets> ${PBX_TEST_PCH_BUNDLE})
    else()
        target_link_libraries(${host} PRIVATE pbx_core Qt6::Test pbx_options)
        target_precompile_headers(${host} PRIVATE ${PBX_TEST_PCH_COMMON} ${PBX_TEST_PCH_BUNDLE})
    endif()
endfunction()

# The ctest test: its own home, platform, labels and timeout.
function(pbx_register_qtest name command gui timeout)
    add_test(NAME ${name} COMMAND ${command})
    if(NOT timeout)
        set(timeout 300)
    endif()
    string(REGEX MATCH "^[a-z]+" label "${name}")
    # Each test has a home of its own (QStandardPaths' test mode writes under $HOME/.qttest; settings,
    # recent files and journals under the XDG folders), so tests can run in parallel (ctest -j).
    set(home "${CMAKE_BINARY_DIR}/test-home/${name}")
    file(MAKE_DIRECTORY "${home}/config" "${home}/data" "${home}/cache")
    set(env "HOME=${home};XDG_CONFIG_HOME=${home}/config;XDG_DATA_HOME=${home}/data;XDG_CACHE_HOME=${home}/cache")
    set(labels ${label})
    if(gui)
        list(APPEND env "QT_QPA_PLATFORM=offscreen" "PBX_SCREENSHOT_DIR=${CMAKE_BINARY_DIR}/screenshots")
        list(APPEND labels gui)
    endif()
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${env}" TIMEOUT ${timeout} LABELS "${labels}")
endfunction()

# A test executable's build settings: libraries, definitions, the group's precompiled header.
function(pbx_configure_test_executable exe group libs definitions options cli)
    target_link_libraries(${exe} PRIVATE ${libs} pbx_test_main Qt6::Test pbx_options)
    target_compile_definitions(${exe} PRIVATE
        PBX_SOURCE_DIR="${CMAKE_SOURCE_DIR}" PBX_ORACLE_DIR="${CMAKE_SOURCE_DIR}/tests/data/oracle"
        ${definitions})
    target_compile_options(${exe} PRIVATE ${options})
    if(cli)
        target_compile_definitions(${exe} PRIVATE PBX_CLI="$<TARGET_FILE:pbx-cli>")
        add_dependencies(${exe} pbx-cli)
    endif()
    set(host pbx_test_pch_${group})
    pbx_test_pch_host(${host} ${group})
    set_target_properties(${exe} PROPERTIES QT_TESTCASE_BUILDDIR "${CMAKE_BINARY_DIR}/tests")
    target_precompile_headers(${exe} REUSE_FROM ${host})
    pbx_test_moc(${exe})
endfunction()

# The tests' moc step. Each test source declares its classes itself and ends with
# `#include "<name>.moc"`; moc needs nothing from the headers it includes to write that file. AUTOMOC
# gave moc the target's include paths, and moc then preprocessed Qt Test, nlohmann/json and the core
# headers for every test source: 2.6 s of CPU per source (1.4 user + 1.2 sys) against 0.01 s
# without them, for the same output (tests/core/tst_session.cpp compared). So moc runs here on each
# source alone, and AUTOMOC (with its empty mocs_compilation.cpp) is off for test executables.
function(pbx_test_moc exe)
    set_target_properties(${exe} PROPERTIES AUTOMOC OFF AUTOUIC OFF)
    get_target_property(sources ${exe} SOURCES)
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/${exe}_moc")
    foreach(source IN LISTS sources)
        get_filename_component(name "${source}" NAME_WE)
        get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
        if(NOT source MATCHES "\\.cpp$")
            continue()
        endif()
        file(STRINGS "${source}" includes_moc REGEX "^#include \"${name}\\.moc\"")
        if(includes_moc)
            add_custom_command(OUTPUT "${dir}/${name}.moc"
                COMMAND Qt6::moc "${source}" -o "${dir}/${name}.moc"
                DEPENDS "${source}" Qt6::moc
                COMMENT "moc ${name}.cpp" VERBATIM)
            target_sources(${exe} PRIVATE "${dir}/${name}.moc")
            set_source_files_properties("${dir}/${name}.moc" PROPERTIES HEADER_FILE_ONLY ON)
        endif()
    endforeach()
    # AUTOUIC off too (qt_standard_project_setup turns it on): with it, CMake puts the target's
    # autogen include folder first, where a build folder that once ran AUTOMOC for tests keeps its
    # old .moc files, and those would be compiled instead of these.
    target_include_directories(${exe} BEFORE PRIVATE "${dir}")
endfunction()

# The class a test source registers (QTEST_MAIN and its siblings), read at configure time.
function(pbx_test_class_name out)
    foreach(source IN LISTS ARGN)
        if(source MATCHES "\\.cpp$")
            file(STRINGS "${source}" lines REGEX "^QTEST_[A-Z_]*MAIN\\(")
            if(lines)
                string(REGEX REPLACE "^QTEST_[A-Z_]*MAIN\\(([A-Za-z0-9_]+)\\).*$" "\\1" name "${lines}")
                set(${out} "${name}" PARENT_SCOPE)
                return()
            endif()
        endif()
    endforeach()
    message(FATAL_ERROR "pbx_add_qtest: no QTEST_MAIN(Class) in ${ARGN} (a test with its own main() is STANDALONE)")
endfunction()

function(pbx_add_qtest)
    cmake_parse_arguments(T "GUI;CLI;STANDALONE" "NAME;TIMEOUT" "SOURCES;LIBS;DEFINITIONS;OPTIONS" ${ARGN})
    set(group core)
    if("pbx_ui" IN_LIST T_LIBS)
        set(group gui)
    endif()
    if(T_STANDALONE)
        string(REPLACE "." "_" exe "tst_${T_NAME}")
        add_executable(${exe} ${T_SOURCES})
        pbx_configure_test_executable(${exe} ${group} "${T_LIBS}" "${T_DEFINITIONS}" "${T_OPTIONS}" "${T_CLI}")
        pbx_register_qtest(${T_NAME} ${exe} "${T_GUI}" "${T_TIMEOUT}")
        return()
    endif()
    list(TRANSFORM T_SOURCES PREPEND "${CMAKE_CURRENT_SOURCE_DIR}/" REGEX "^[^/$]")
    pbx_test_class_name(class ${T_SOURCES})
    get_filename_component(folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
    set(bundle "tst_${folder}_${group}")
    get_property(known DIRECTORY PROPERTY PBX_TEST_BUNDLES)
    if(NOT bundle IN_LIST known)
        set_property(DIRECTORY APPEND PROPERTY PBX_TEST_BUNDLES ${bundle})
        # A deferred call's arguments are read when it runs: write them in now.
        cmake_language(EVAL CODE "cmake_language(DEFER CALL pbx_finish_test_bundle ${bundle} ${group})")
    endif()
    foreach(kind SOURCES LIBS DEFINITIONS OPTIONS)
        set_property(DIRECTORY APPEND PROPERTY PBX_${bundle}_${kind} ${T_${kind}})
    endforeach()
    if(T_CLI)
        set_property(DIRECTORY PROPERTY PBX_${bundle}_CLI ON)
    endif()
    pbx_register_qtest(${T_NAME} "${bundle};${class}" "${T_GUI}" "${T_TIMEOUT}")
endfunction()

# Called at the end of the folder's CMakeLists.txt (cmake_language DEFER): the bundle's executable.
function(pbx_finish_test_bundle bundle group)
    foreach(kind SOURCES LIBS DEFINITIONS OPTIONS CLI)
        get_property(${kind} DIRECTORY PROPERTY PBX_${bundle}_${kind})
    endforeach()
    list(REMOVE_DUPLICATES SOURCES)
    list(REMOVE_DUPLICATES LIBS)
    list(REMOVE_DUPLICATES DEFINITIONS)
    list(REMOVE_DUPLICATES OPTIONS)
    add_executable(${bundle} ${SOURCES})
    pbx_configure_test_executable(${bundle} ${group} "${LIBS}" "${DEFINITIONS}" "${OPTIONS}" "${CLI}")
endfunction()

# A test added with add_test that reuses a pbx_add_qtest executable and copies its environment
# (e.g. the same test on another screen) gets a home of its own too, so the two can run together.
function(pbx_own_home name)
    set(home "${CMAKE_BINARY_DIR}/test-home/${name}")
    file(MAKE_DIRECTORY "${home}/config" "${home}/data" "${home}/cache")
    set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT
        "HOME=${home}" "XDG_CONFIG_HOME=${home}/config" "XDG_DATA_HOME=${home}/data" "XDG_CACHE_HOME=${home}/cache")
endfunction()
