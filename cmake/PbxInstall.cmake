# SPDX-License-Identifier: MIT
# Installing pbx like a desktop application (freedesktop menu entry, icons, AppStream metainfo,
# manual pages) and packaging it as a Debian package with CPack (`scripts/pbx package`).
include(GNUInstallDirs)

set(pbx_desktop "${CMAKE_SOURCE_DIR}/resources/desktop")
set(pbx_icons "${CMAKE_SOURCE_DIR}/resources/icons")

install(TARGETS pbx pbx-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES "${pbx_desktop}/${PBX_APP_ID}.desktop" DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES "${pbx_desktop}/${PBX_APP_ID}.metainfo.xml" DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES "${pbx_icons}/pbx.svg" DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
        RENAME ${PBX_APP_ID}.svg)
foreach(size 16 24 32 48 64 128 256 512)
    install(FILES "${pbx_icons}/pbx-${size}.png"
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps RENAME ${PBX_APP_ID}.png)
endforeach()

# Manual pages carry the project version; Debian wants them compressed (gzip -9n).
find_program(PBX_GZIP gzip)
foreach(page pbx.1 pbx-cli.1)
    configure_file("${CMAKE_SOURCE_DIR}/resources/man/${page}.in" "${CMAKE_BINARY_DIR}/man/${page}" @ONLY)
    if(PBX_GZIP)
        add_custom_command(OUTPUT "${CMAKE_BINARY_DIR}/man/${page}.gz"
            COMMAND ${PBX_GZIP} -9nc "${CMAKE_BINARY_DIR}/man/${page}" > "${CMAKE_BINARY_DIR}/man/${page}.gz"
            DEPENDS "${CMAKE_BINARY_DIR}/man/${page}" VERBATIM)
        list(APPEND pbx_man_pages "${CMAKE_BINARY_DIR}/man/${page}.gz")
    else()
        list(APPEND pbx_man_pages "${CMAKE_BINARY_DIR}/man/${page}")
    endif()
endforeach()
add_custom_target(pbx_man_pages ALL DEPENDS ${pbx_man_pages})
install(FILES ${pbx_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES "${CMAKE_SOURCE_DIR}/resources/datasets/README.md"
        DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME dataset-cps1988.md)
install(FILES "${CMAKE_SOURCE_DIR}/resources/copyright" DESTINATION ${CMAKE_INSTALL_DOCDIR})

# --- Debian package ---
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pbx)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Privacy Budget Explorer developers")
set(CPACK_PACKAGE_CONTACT "Privacy Budget Explorer developers <pbx@pbx.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "explore differential-privacy budgets with accuracy targets")
set(CPACK_PACKAGE_DESCRIPTION
    "Privacy Budget Explorer (pbx) answers counts, sums and means of a dataset with accuracy\n"
    "targets under a differential-privacy budget, charges a privacy filter and shows the\n"
    "remaining budget live. pbx-cli is its command-line twin: scripted sessions, composition\n"
    "accounting, simulations and verification of transcripts.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_PACKAGE_INSTALL_DIRECTORY /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # pbx_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The shared libraries' packages are computed from the binaries (dpkg-shlibdeps).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core")
set(CPACK_STRIP_FILES ON)
set(CPACK_OUTPUT_FILE_PREFIX "${CMAKE_BINARY_DIR}/package")
include(CPack)
