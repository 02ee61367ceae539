# Embeds every templates/*.cuh into the binary as a C++ string table, so NVRTC gets the
# device library as named headers without reading files at run time.
file(GLOB TALLY_TEMPLATE_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/templates/*.cuh)
set(TALLY_EMBEDDED_TEMPLATES ${CMAKE_BINARY_DIR}/embedded_templates.cpp)
add_custom_command(
  OUTPUT ${TALLY_EMBEDDED_TEMPLATES}
  COMMAND ${CMAKE_COMMAND} -DOUT=${TALLY_EMBEDDED_TEMPLATES} "-DFILES=${TALLY_TEMPLATE_FILES}"
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
  DEPENDS ${TALLY_TEMPLATE_FILES} ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
  VERBATIM # the file list holds semicolons, which the shell would take as separators
  COMMENT "Embedding device templates")
