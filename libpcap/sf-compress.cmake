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
# CMake checks for the dumper with options, which writes compressed
# savefiles (sf-compress-write.c and the codecs' files), the same as
# sf-compress.m4 makes for configure.  Included by CMakeLists.txt after
# the pthreads and pkg-config checks, so that the hooks there stay one
# line each.  A dumper writes what the reader reads: the reader's
# checks (sf-compress-read.cmake) come first, and a codec library is
# used for writing where it was found for reading.
#
# They add to PROJECT_SOURCE_LIST_C, PCAP_LINK_LIBRARIES, LIBS,
# LIBS_STATIC, LIBS_PRIVATE and REQUIRES_PRIVATE, and set the HAVE_*
# variables that cmakeconfig.h.in lists.
#

include(${CMAKE_CURRENT_LIST_DIR}/sf-compress-read.cmake)

#
# sf_compress(): the reader's checks (each codec's file, built where
# its library is found, reads and writes its container), the __atomic
# builtins and pthreads.  Whatever is missing, every function pcap.h
# declares is built: without fopencookie() or the builtins (MSVC)
# sf-compress-write.c has stubs.
#
macro(sf_compress)
  sf_compress_read()
  #
  # Dumpers share counters and flags between threads through the
  # GCC/Clang __atomic builtins.
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
  if(SF_COMPRESS_HAVE_ATOMICS)
    #
    # Said on the command line, as configure's AC_DEFINE says it in
    # config.h: cmakeconfig.h.in is upstream's.
    #
    add_definitions(-DSFC_HAVE_ATOMICS=1)
  endif()
  if(CMAKE_USE_PTHREADS_INIT AND SF_COMPRESS_HAVE_ATOMICS)
    set(HAVE_PTHREADS 1)
    list(APPEND PCAP_LINK_LIBRARIES ${CMAKE_THREAD_LIBS_INIT})
    set(LIBS "${LIBS} ${CMAKE_THREAD_LIBS_INIT}")
    set(LIBS_STATIC "${LIBS_STATIC} ${CMAKE_THREAD_LIBS_INIT}")
    set(LIBS_PRIVATE "${LIBS_PRIVATE} ${CMAKE_THREAD_LIBS_INIT}")
  endif()
  list(APPEND PROJECT_SOURCE_LIST_C sf-compress-write.c)
  list(APPEND PROJECT_SOURCE_LIST_C sf-compress-adapt.c)
  #
  # The writer thread (sf-writer.c; its glue, compression helpers and
  # closing thread are in sf-compress-write.c) needs pthreads and a
  # dumper; without them, sf-compress-write.c has a
  # pcap_dump_close_async() that closes at once, and without pthreads
  # the writer thread's options are refused with a message.
  #
  if(HAVE_PTHREADS)
    #
    # Where the thread runs, and the options' checks of it
    # (sf-writer.c, whose other parts need a dumper too).  Pinning
    # the writer thread to a CPU needs pthread_attr_setaffinity_np();
    # without it a request to pin fails rather than being ignored.
    # The writer and compression threads name themselves, for top -H,
    # with pthread_setname_np() where there is one.
    #
    list(APPEND PROJECT_SOURCE_LIST_C sf-writer.c)
    cmake_push_check_state()
    set(CMAKE_REQUIRED_LIBRARIES ${CMAKE_THREAD_LIBS_INIT})
    check_function_exists(pthread_attr_setaffinity_np
        HAVE_PTHREAD_ATTR_SETAFFINITY_NP)
    check_function_exists(pthread_setname_np HAVE_PTHREAD_SETNAME_NP)
    cmake_pop_check_state()
  endif()
  if(HAVE_PTHREADS AND SF_COMPRESS_COOKIE AND SF_COMPRESS_HAVE_ATOMICS)
    #
    # The writer's timed waits use CLOCK_MONOTONIC where a condition
    # variable can be given a clock.
    #
    cmake_push_check_state()
    set(CMAKE_REQUIRED_LIBRARIES ${CMAKE_THREAD_LIBS_INIT})
    check_function_exists(pthread_condattr_setclock
        HAVE_PTHREAD_CONDATTR_SETCLOCK)
    cmake_pop_check_state()
  endif()
endmacro()
