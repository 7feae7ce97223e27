# Copyright (c) 2026 The sluice developers.  All rights reserved.
#
# Redistribution and use in source and binary forms, with or without
# modification, are permitted provided that the following conditions
# are met:
#
#   1. Redistributions of source code must retain the above copyright
#      notice, this list of conditions and the following disclaimer.
#   2. Redistributions in binary form must reproduce the above copyright
#      notice, this list of conditions and the following disclaimer in the
#      documentation and/or other materials provided with the distribution.
#   3. Neither the name of the copyright holders nor the names of its
#      contributors may be used to endorse or promote products derived
#      from this software without specific prior written permission.
#
# THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
# ``AS IS'' AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
# LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
# A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT
# OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
# SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
# LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
# DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
# THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
# (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
# OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
#
# CMake checks for reading compressed savefiles, the same as
# sf-compress-read.m4 makes for configure: a savefile that gzip, lz4 or
# zstd compressed, or that a program compressed block by block, is read
# through a decompressing stream (sf-compress-read.c, and one file
# per codec library).  Included by CMakeLists.txt after the pkg-config
# checks, so that the hook there stays one line.
#
# They add to PROJECT_SOURCE_LIST_C, PCAP_LINK_LIBRARIES, LIBS,
# LIBS_STATIC, LIBS_PRIVATE and REQUIRES_PRIVATE, and set the HAVE_*
# variables that cmakeconfig.h.in lists.
#

#
# sf_compress_codec(NAME PREFIX PKG-CONFIG-MODULE HEADER FUNCTION
#     LIBRARY DEFINE SOURCE)
#
# WITH_NAME=ON|OFF|ifavailable (default ifavailable): look the library
# up with pkg-config, falling back to the plain header and library; a
# codec that was asked for and is missing is an error.  DEFINE is set
# when it was found, for a writer's checks to build on.
#
macro(sf_compress_codec _name _prefix _module _header _function _library _define _source)
  string(TOUPPER "${_name}" _upper)
  set(WITH_${_upper} "ifavailable" CACHE STRING
      "compressed savefiles with ${_name}: ON, OFF or ifavailable")
  #
  # "ifavailable" (or configure's "if_available"), else a CMake boolean:
  # yes, ON, TRUE or 1 ask for it, no, OFF, FALSE or 0 turn it off.
  #
  string(TOLOWER "${WITH_${_upper}}" _want)
  if(_want STREQUAL "ifavailable" OR _want STREQUAL "if_available")
    set(_want "ifavailable")
  elseif(_want)
    set(_want "yes")
  else()
    set(_want "no")
  endif()
  set(_found FALSE)
  if(NOT _want STREQUAL "no" AND SF_COMPRESS_COOKIE)
    pkg_check_modules(${_prefix} ${_module})
    if(${_prefix}_FOUND)
      set(_found TRUE)
      include_directories(${${_prefix}_INCLUDE_DIRS})
      foreach(_lib IN LISTS ${_prefix}_LIBRARIES)
        unset(_libpath CACHE)
        find_library(_libpath ${_lib} HINTS ${${_prefix}_LIBRARY_DIRS})
        list(APPEND PCAP_LINK_LIBRARIES ${_libpath})
      endforeach()
      unset(_libpath CACHE)
      pkg_get_link_info(${_prefix} ${_module})
      set(LIBS "${LIBS} ${${_prefix}_LIBS}")
      set(LIBS_STATIC "${LIBS_STATIC} ${${_prefix}_LIBS_STATIC}")
      set(REQUIRES_PRIVATE "${REQUIRES_PRIVATE} ${_module}")
    else()
      check_include_file(${_header} ${_prefix}_HAVE_HEADER)
      if(${_prefix}_HAVE_HEADER)
        check_library_exists(${_library} ${_function} "" ${_prefix}_HAVE_LIBRARY)
        if(${_prefix}_HAVE_LIBRARY)
          set(_found TRUE)
          list(APPEND PCAP_LINK_LIBRARIES ${_library})
          set(LIBS "${LIBS} -l${_library}")
          set(LIBS_STATIC "${LIBS_STATIC} -l${_library}")
          set(LIBS_PRIVATE "${LIBS_PRIVATE} -l${_library}")
        endif()
      endif()
    endif()
    if(_found)
      set(${_define} 1)
      list(APPEND PROJECT_SOURCE_LIST_C ${_source})
    elseif(_want STREQUAL "yes")
      message(FATAL_ERROR "WITH_${_upper}=yes was given, but ${_name} was not found")
    endif()
  elseif(_want STREQUAL "yes")
    message(FATAL_ERROR "WITH_${_upper}=yes was given, but compressed savefiles need fopencookie() or funopen()")
  endif()
endmacro()

#
# sf_compress_read(): fopencookie() or funopen(), and the BSD-licensed
# codecs: zlib (gzip), liblz4, libzstd.  sf-compress-read.c is always
# built: without either function (SFC_COOKIE_OFF_T unset) it still
# recognises compressed files, and refuses them by name.
#
macro(sf_compress_read)
  list(APPEND PROJECT_SOURCE_LIST_C sf-compress-read.c)
  check_function_exists(fopencookie HAVE_FOPENCOOKIE)
  set(SF_COMPRESS_COOKIE ${HAVE_FOPENCOOKIE})
  #
  # The seek function takes an off64_t * in glibc and an off_t * in
  # musl, whose off_t is 64 bits wide and which declares off64_t only
  # for _LARGEFILE64_SOURCE, if at all.  A function of the other type
  # is a hard error here, as a redeclaration.
  #
  if(SF_COMPRESS_COOKIE)
    include(CheckCSourceCompiles)
    unset(SFC_COOKIE_OFF_T)
    foreach(_sfc_t off64_t off_t)
      check_c_source_compiles("
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
cookie_seek_function_t sfc_seek;
int sfc_seek(void *c, ${_sfc_t} *o, int w) { return c != o ? w : 0; }
int main(void) { return 0; }" SFC_COOKIE_SEEK_TAKES_${_sfc_t})
      if(SFC_COOKIE_SEEK_TAKES_${_sfc_t})
        set(SFC_COOKIE_OFF_T ${_sfc_t})
        break()
      endif()
    endforeach()
    if(NOT SFC_COOKIE_OFF_T)
      set(SF_COMPRESS_COOKIE FALSE)
    endif()
  else()
    #
    # macOS and the other BSDs have funopen() instead, whose seek
    # function takes and returns an fpos_t, which is an off_t there
    # (libbsd's takes an off_t).
    #
    check_function_exists(funopen HAVE_FUNOPEN)
    if(HAVE_FUNOPEN)
      set(SF_COMPRESS_COOKIE TRUE)
      set(SFC_COOKIE_OFF_T off_t)
    endif()
  endif()
  sf_compress_codec(zlib ZLIB zlib zlib.h inflateReset z
      HAVE_ZLIB sf-compress-zlib.c)
  sf_compress_codec(lz4 LIBLZ4 liblz4 lz4frame.h LZ4F_decompress lz4
      HAVE_LIBLZ4 sf-compress-lz4.c)
  sf_compress_codec(zstd LIBZSTD libzstd zstd.h ZSTD_decompressStream zstd
      HAVE_LIBZSTD sf-compress-zstd.c)
endmacro()
