# Runs scripts/check-install-list on this build as if libqt6opengl6-dev were not on the install
# list: it must fail, naming a Qt6OpenGL file and the package to add.
execute_process(COMMAND ${SCRIPT} --without libqt6opengl6-dev ${BUILD}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
    message(FATAL_ERROR "expected exit status 1 without libqt6opengl6-dev, got ${rc}:\n${out}${err}")
endif()
if(NOT err MATCHES "cmake/Qt6OpenGL/[^ ]+ comes from libqt6opengl6-dev, which the install list does not pull in: add libqt6opengl6-dev")
    message(FATAL_ERROR "the message does not name the Qt6OpenGL file and the package to add:\n${err}")
endif()
string(REGEX MATCHALL "\n" lines "${err}")
list(LENGTH lines n)
message(STATUS "check-install-list refused the list without libqt6opengl6-dev (${n} lines)")
