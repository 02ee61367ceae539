# `cmake --install build --prefix P`: the tally command (bin/), the static libraries, the
# public headers (include/tally only) and a CMake package (python/CMakeLists.txt adds the
# Python package), so that an application does
#   find_package(tally REQUIRED)
#   target_link_libraries(app PRIVATE tally::tally)
# The package is self-contained: it ships the ANTLR runtime archive the parser needs and
# zlib's (table file checksums), and
# brings in dl and pthread. The targets file is written by hand (not install(EXPORT)) so
# that the internal targets' build-only dependencies (fmt, the ANTLR headers) do not leak
# into applications.
include(CMakePackageConfigHelpers)

install(TARGETS tally RUNTIME DESTINATION bin)
set(TALLY_INSTALL_ARCHIVES tally_api tally_runtime tally_compiler tally_grammar)
install(TARGETS ${TALLY_INSTALL_ARCHIVES} ARCHIVE DESTINATION lib)
install(FILES ${ANTLR4_LIB_DIR}/libantlr4-runtime.a ${ZLIB_STATIC} DESTINATION lib/tally)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/tally DESTINATION include)

set(TALLY_PACKAGE_DIR ${CMAKE_BINARY_DIR}/package)
configure_file(${CMAKE_SOURCE_DIR}/cmake/tallyTargets.cmake.in
               ${TALLY_PACKAGE_DIR}/tallyTargets.cmake @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/cmake/tallyConfig.cmake.in
               ${TALLY_PACKAGE_DIR}/tallyConfig.cmake @ONLY)
write_basic_package_version_file(${TALLY_PACKAGE_DIR}/tallyConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${TALLY_PACKAGE_DIR}/tallyConfig.cmake ${TALLY_PACKAGE_DIR}/tallyTargets.cmake
              ${TALLY_PACKAGE_DIR}/tallyConfigVersion.cmake
        DESTINATION lib/cmake/tally)
