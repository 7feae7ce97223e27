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
# CMake checks for the dumper with options, the same as sf-compress.m4
# makes for configure: compressed savefiles (sf-compress-*.c), their
# writer thread (sf-writer.c, the glue in sf-compress-thread.c, the
# compression helpers in sf-compress-jobs.c) and the closing thread
# (sf-close-async.c).  Included by CMakeLists.txt after the pthreads and
# pkg-config checks, so that the hooks there stay one line each.
#
# They add to PROJECT_SOURCE_LIST_C, PCAP_LINK_LIBRARIES, LIBS,
# LIBS_STATIC, LIBS_PRIVATE and REQUIRES_PRIVATE, and set the HAVE_*
# variables that cmakeconfig.h.in lists.
#

#
# sf_compress_codec(NAME PREFIX PKG-CONFIG-MODULE HEADER FUNCTION
#     LIBRARY DEFINE SOURCE)
#
# WITH_NAME=yes|no|ifavailable (default ifavailable): look the library
# up with pkg-config, falling back to the plain header and library; a
# codec that was asked for and is missing is an error.
#
macro(sf_compress_codec _name _prefix _module _header _function _library _define _source)
  string(TOUPPER "${_name}" _upper)
  set(WITH_${_upper} "ifavailable" CACHE STRING
      "compressed savefiles with ${_name}: yes, no or ifavailable")
  set(_want "${WITH_${_upper}}")
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
    message(FATAL_ERROR "WITH_${_upper}=yes was given, but compressed savefiles need fopencookie()")
  endif()
endmacro()

#
# sf_compress(): fopencookie(), the __atomic builtins, pthreads, and the
# BSD-licensed codecs: zlib (gzip), liblz4, libzstd.  Whatever is
# missing, every function pcap.h declares is built: without
# fopencookie() or the builtins (MSVC) the dumper and reader are
# sf-compress-unsupported.c, without pthreads the thread glue and
# pcap_dump_close_async() are sf-compress-nothread.c.
#
macro(sf_compress)
  list(APPEND PROJECT_SOURCE_LIST_C sf-compress-options.c
      sf-compress-codecs.c sf-compress-store.c sf-compress-policy.c
      sf-compress-ladders.c)
  check_function_exists(fopencookie HAVE_FOPENCOOKIE)
  set(SF_COMPRESS_COOKIE ${HAVE_FOPENCOOKIE})
  #
  # The dumper, its writer thread and the reader share counters and
  # flags between threads through the GCC/Clang __atomic builtins.
  #
  include(CheckCSourceCompiles)
  check_c_source_compiles("
#include <stdint.h>
int main(void)
{
	uint64_t v = 0;
	int i = 0, z = 0;
	__atomic_store_n(&v, __atomic_load_n(&v, __ATOMIC_ACQUIRE) + 1,
	    __ATOMIC_RELEASE);
	(void)__atomic_compare_exchange_n(&i, &z, 1, 0,
	    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return (int)v;
}" SF_COMPRESS_HAVE_ATOMICS)
  if(NOT SF_COMPRESS_HAVE_ATOMICS)
    set(SF_COMPRESS_COOKIE FALSE)
  endif()
  if(SF_COMPRESS_COOKIE)
    list(APPEND PROJECT_SOURCE_LIST_C sf-compress-dumper.c
        sf-compress-pipeline.c sf-compress-assembler.c
        sf-compress-planner.c sf-compress-adapt.c
        sf-compress-block.c sf-compress-sink.c sf-compress-reader.c
        sf-compress-input.c sf-compress-units.c sf-compress-decompress.c
        sf-compress-seek.c sf-compress-resync.c sf-compress-seektable.c)
  else()
    list(APPEND PROJECT_SOURCE_LIST_C sf-compress-unsupported.c)
  endif()
  if(CMAKE_USE_PTHREADS_INIT AND SF_COMPRESS_HAVE_ATOMICS)
    set(HAVE_PTHREADS 1)
    list(APPEND PCAP_LINK_LIBRARIES ${CMAKE_THREAD_LIBS_INIT})
    set(LIBS "${LIBS} ${CMAKE_THREAD_LIBS_INIT}")
    set(LIBS_STATIC "${LIBS_STATIC} ${CMAKE_THREAD_LIBS_INIT}")
    set(LIBS_PRIVATE "${LIBS_PRIVATE} ${CMAKE_THREAD_LIBS_INIT}")
    list(APPEND PROJECT_SOURCE_LIST_C sf-writer.c sf-writer-put.c sf-writer-sched.c
        sf-compress-thread.c
        sf-compress-jobs.c sf-close-async.c)
    #
    # Pinning the writer thread to a CPU needs
    # pthread_attr_setaffinity_np(); without it a request to pin fails
    # rather than being ignored.  The writer and compression threads
    # name themselves, for top -H, with pthread_setname_np() where
    # there is one.
    #
    cmake_push_check_state()
    set(CMAKE_REQUIRED_LIBRARIES ${CMAKE_THREAD_LIBS_INIT})
    check_function_exists(pthread_attr_setaffinity_np
        HAVE_PTHREAD_ATTR_SETAFFINITY_NP)
    check_function_exists(pthread_setname_np HAVE_PTHREAD_SETNAME_NP)
    cmake_pop_check_state()
  else()
    list(APPEND PROJECT_SOURCE_LIST_C sf-compress-nothread.c)
  endif()
  sf_compress_codec(zlib ZLIB zlib zlib.h deflateBound z
      HAVE_ZLIB sf-compress-zlib.c)
  sf_compress_codec(lz4 LIBLZ4 liblz4 lz4frame.h LZ4F_compressBegin lz4
      HAVE_LIBLZ4 sf-compress-lz4.c)
  sf_compress_codec(zstd LIBZSTD libzstd zstd.h ZSTD_compress2 zstd
      HAVE_LIBZSTD sf-compress-zstd.c)
endmacro()

#
# sf_compress_lzo(): liblzo2 for the lzop container.  liblzo2 is
# GPL-2.0-or-later, so a libpcap built with it is distributed under the
# GPL; off unless WITH_LZO is set.
#
macro(sf_compress_lzo)
  option(WITH_LZO "compressed savefiles with LZO (lzop); liblzo2 is GPL, so the resulting libpcap is too" OFF)
  if(WITH_LZO)
    if(NOT SF_COMPRESS_COOKIE)
      message(FATAL_ERROR "WITH_LZO was given, but compressed savefiles need fopencookie()")
    endif()
    sf_compress_codec(lzo LIBLZO2 lzo2 lzo/lzo1x.h lzo1x_1_compress lzo2
        HAVE_LIBLZO2 sf-compress-lzo.c)
    if(NOT HAVE_LIBLZO2)
      message(FATAL_ERROR "WITH_LZO was given, but liblzo2 was not found")
    endif()
  endif()
endmacro()
