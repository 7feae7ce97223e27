#
# Try to find libzstd, for zstd compressed savefiles.
#
# Once done, this will define
#
# ZSTD_FOUND
# ZSTD_INCLUDE_DIRS
# ZSTD_LIBRARIES
# ZSTD_LIBS, ZSTD_LIBS_STATIC and ZSTD_LIBS_PRIVATE
# ZSTD_PACKAGE_NAME (if pkg-config found it)
#
# pkg-config first, as for libnl; the header and the library as the
# fallback.
#
if(PKG_CONFIG_FOUND)
  pkg_check_modules(ZSTD QUIET libzstd)
endif()
if(ZSTD_FOUND)
  pkg_get_link_info(ZSTD libzstd)
  set(_ZSTD_libraries)
  foreach(_lib IN LISTS ZSTD_LIBRARIES)
    unset(_ZSTD_path CACHE)
    find_library(_ZSTD_path ${_lib} HINTS ${ZSTD_LIBRARY_DIRS})
    list(APPEND _ZSTD_libraries ${_ZSTD_path})
  endforeach()
  unset(_ZSTD_path CACHE)
  set(ZSTD_LIBRARIES ${_ZSTD_libraries})
else()
  find_path(ZSTD_INCLUDE_DIR zstd.h)
  find_library(ZSTD_LIBRARY zstd)
  get_link_info_from_library_path(ZSTD zstd)

  include(FindPackageHandleStandardArgs)
  find_package_handle_standard_args(ZSTD
    DEFAULT_MSG
    ZSTD_INCLUDE_DIR
    ZSTD_LIBRARY
  )
  mark_as_advanced(ZSTD_INCLUDE_DIR ZSTD_LIBRARY)
  set(ZSTD_INCLUDE_DIRS ${ZSTD_INCLUDE_DIR})
  set(ZSTD_LIBRARIES ${ZSTD_LIBRARY})
endif()
