#
# Try to find liblz4, for LZ4 compressed savefiles.
#
# Once done, this will define
#
# LZ4_FOUND
# LZ4_INCLUDE_DIRS
# LZ4_LIBRARIES
# LZ4_LIBS, LZ4_LIBS_STATIC and LZ4_LIBS_PRIVATE
# LZ4_PACKAGE_NAME (if pkg-config found it)
#
# pkg-config first, as for libnl; the header and the library as the
# fallback.
#
if(PKG_CONFIG_FOUND)
  pkg_check_modules(LZ4 QUIET liblz4)
endif()
if(LZ4_FOUND)
  pkg_get_link_info(LZ4 liblz4)
  set(_LZ4_libraries)
  foreach(_lib IN LISTS LZ4_LIBRARIES)
    unset(_LZ4_path CACHE)
    find_library(_LZ4_path ${_lib} HINTS ${LZ4_LIBRARY_DIRS})
    list(APPEND _LZ4_libraries ${_LZ4_path})
  endforeach()
  unset(_LZ4_path CACHE)
  set(LZ4_LIBRARIES ${_LZ4_libraries})
else()
  find_path(LZ4_INCLUDE_DIR lz4frame.h)
  find_library(LZ4_LIBRARY lz4)
  get_link_info_from_library_path(LZ4 lz4)

  include(FindPackageHandleStandardArgs)
  find_package_handle_standard_args(LZ4
    DEFAULT_MSG
    LZ4_INCLUDE_DIR
    LZ4_LIBRARY
  )
  mark_as_advanced(LZ4_INCLUDE_DIR LZ4_LIBRARY)
  set(LZ4_INCLUDE_DIRS ${LZ4_INCLUDE_DIR})
  set(LZ4_LIBRARIES ${LZ4_LIBRARY})
endif()
