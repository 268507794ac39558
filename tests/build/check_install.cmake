# Installs the build into a scratch prefix and checks the desktop application's layout.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed (${rc}): ${err}")
endif()
set(expected
    bin/pbx bin/pbx-cli
    share/applications/${APP_ID}.desktop
    share/metainfo/${APP_ID}.metainfo.xml
    share/icons/hicolor/scalable/apps/${APP_ID}.svg
    share/man/man1/pbx.1.gz share/man/man1/pbx-cli.1.gz)
foreach(size 16 24 32 48 64 128 256 512)
    list(APPEND expected share/icons/hicolor/${size}x${size}/apps/${APP_ID}.png)
endforeach()
foreach(f ${expected})
    if(NOT EXISTS ${PREFIX}/${f})
        message(FATAL_ERROR "cmake --install did not install ${f}")
    endif()
endforeach()
# The PNGs are the sizes their folders claim (width and height in the IHDR chunk).
foreach(size 16 256)
    file(READ ${PREFIX}/share/icons/hicolor/${size}x${size}/apps/${APP_ID}.png header LIMIT 24 HEX)
    string(SUBSTRING "${header}" 32 8 width)
    string(SUBSTRING "${header}" 40 8 height)
    math(EXPR width "0x${width}")
    math(EXPR height "0x${height}")
    if(NOT width EQUAL size OR NOT height EQUAL size)
        message(FATAL_ERROR "the ${size}x${size} icon is ${width}x${height}")
    endif()
endforeach()
# The menu entry starts the installed binary and names the installed icon; the metainfo names
# the menu entry.
file(READ ${PREFIX}/share/applications/${APP_ID}.desktop desktop)
foreach(line "Type=Application" "Exec=pbx %f" "Icon=${APP_ID}" "Terminal=false")
    string(FIND "${desktop}" "\n${line}\n" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the desktop entry lacks the line '${line}'")
    endif()
endforeach()
file(READ ${PREFIX}/share/metainfo/${APP_ID}.metainfo.xml metainfo)
foreach(text "<id>${APP_ID}</id>" "<launchable type=\"desktop-id\">${APP_ID}.desktop</launchable>"
             "<binary>pbx-cli</binary>")
    string(FIND "${metainfo}" "${text}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the metainfo lacks ${text}")
    endif()
endforeach()
# The installed CLI runs.
execute_process(COMMAND ${PREFIX}/bin/pbx-cli --help RESULT_VARIABLE rc OUTPUT_VARIABLE help)
if(NOT rc EQUAL 0 OR NOT help MATCHES "Usage: pbx-cli")
    message(FATAL_ERROR "the installed pbx-cli --help failed (${rc}): ${help}")
endif()
message(STATUS "installed ${PREFIX}: ${expected}")
