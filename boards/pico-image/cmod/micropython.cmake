# eboardio (eboardio.c): the rp2 image's one C module (boards/build-image.sh, USER_C_MODULES).
add_library(usermod_eboardio INTERFACE)
target_sources(usermod_eboardio INTERFACE ${CMAKE_CURRENT_LIST_DIR}/eboardio.c)
target_include_directories(usermod_eboardio INTERFACE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(usermod INTERFACE usermod_eboardio)
