# SPDX-License-Identifier: MIT
# pbx_add_qtest(NAME core.filters SOURCES tst_x.cpp LIBS pbx_core [GUI])
# One Qt Test class per executable. GUI marks a test that creates widgets: only those run on the
# offscreen platform, save screenshots in <build>/screenshots and carry the extra label "gui"
# (ctest -L gui / -LE gui); the others get no platform at all, so a stray QApplication fails loudly.
function(pbx_add_qtest)
    cmake_parse_arguments(T "GUI" "NAME;TIMEOUT" "SOURCES;LIBS" ${ARGN})
    string(REPLACE "." "_" exe "tst_${T_NAME}")
    add_executable(${exe} ${T_SOURCES})
    target_link_libraries(${exe} PRIVATE ${T_LIBS} Qt6::Test pbx_options)
    target_compile_definitions(${exe} PRIVATE
        PBX_SOURCE_DIR="${CMAKE_SOURCE_DIR}" PBX_ORACLE_DIR="${CMAKE_SOURCE_DIR}/tests/data/oracle")
    add_test(NAME ${T_NAME} COMMAND ${exe})
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT 300)
    endif()
    string(REGEX MATCH "^[a-z]+" label "${T_NAME}")
    set(env "XDG_CONFIG_HOME=${CMAKE_BINARY_DIR}/test-config;XDG_DATA_HOME=${CMAKE_BINARY_DIR}/test-data")
    set(labels ${label})
    if(T_GUI)
        list(APPEND env "QT_QPA_PLATFORM=offscreen" "PBX_SCREENSHOT_DIR=${CMAKE_BINARY_DIR}/screenshots")
        list(APPEND labels gui)
    endif()
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${env}" TIMEOUT ${T_TIMEOUT} LABELS "${labels}")
endfunction()
