#
# Try to find liblzo2, for lzop savefiles.
#
# Once done, this will define
#
# LZO2_FOUND
# LZO2_INCLUDE_DIRS
# LZO2_LIBRARIES
# LZO2_LIBS, LZO2_LIBS_STATIC and LZO2_LIBS_PRIVATE
# LZO2_PACKAGE_NAME (if pkg-config found it)
#
# pkg-config first, as for libnl; the header and the library as the
# fallback.
#
if(PKG_CONFIG_FOUND)
  pkg_check_modules(LZO2 QUIET lzo2)
endif()
if(LZO2_FOUND)
  pkg_get_link_info(LZO2 lzo2)
  set(_LZO2_libraries)
  foreach(_lib IN LISTS LZO2_LIBRARIES)
    unset(_LZO2_path CACHE)
    find_library(_LZO2_path ${_lib} HINTS ${LZO2_LIBRARY_DIRS})
    list(APPEND _LZO2_libraries ${_LZO2_path})
  endforeach()
  unset(_LZO2_path CACHE)
  set(LZO2_LIBRARIES ${_LZO2_libraries})
else()
  find_path(LZO2_INCLUDE_DIR lzo/lzo1x.h)
  find_library(LZO2_LIBRARY lzo2)
  get_link_info_from_library_path(LZO2 lzo2)

  include(FindPackageHandleStandardArgs)
  find_package_handle_standard_args(LZO2
    DEFAULT_MSG
    LZO2_INCLUDE_DIR
    LZO2_LIBRARY
  )
  mark_as_advanced(LZO2_INCLUDE_DIR LZO2_LIBRARY)
  set(LZO2_INCLUDE_DIRS ${LZO2_INCLUDE_DIR})
  set(LZO2_LIBRARIES ${LZO2_LIBRARY})
endif()
