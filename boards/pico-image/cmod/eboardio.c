// eboardio: the USB link's waiting bytes in one call, for eboard-pico.uf2 (issue #23).
//
// MicroPython's stdin on the rp2 port blocks until it has every byte asked for, and its
// poll says only whether one byte is there, so the firmware read the link a byte at a time
// (some 45 us a byte of Python on the chip).  eboardio.take(buf) copies whatever is waiting
// (the port's stdin ring buffer, refilled from the USB CDC FIFO as it empties) into buf and
// returns how many bytes, 0 when none: it never waits.  The firmware uses it when the image
// has it (firmware/main.py) and reads a byte at a time on stock MicroPython.
//
// Built only into the rp2 image (boards/build-image.sh, USER_C_MODULES): our own code, built
// against the MicroPython source's ports/rp2 (its stdin_ringbuf, mp_hal_stdio_poll).

#include "py/runtime.h"
#include "py/mphal.h"
#include "py/ringbuf.h"
#include "py/stream.h"

extern ringbuf_t stdin_ringbuf;

static mp_obj_t eboardio_take(mp_obj_t buf_in) {
    mp_buffer_info_t info;
    mp_get_buffer_raise(buf_in, &info, MP_BUFFER_WRITE);
    uint8_t *p = info.buf;
    size_t n = 0;
    while (n < info.len) {
        // The poll runs the USB stack and moves what TinyUSB holds into the ring buffer.
        if (!(mp_hal_stdio_poll(MP_STREAM_POLL_RD) & MP_STREAM_POLL_RD)) {
            break;
        }
        int c;
        while (n < info.len && (c = ringbuf_get(&stdin_ringbuf)) >= 0) {
            p[n++] = c;
        }
    }
    return MP_OBJ_NEW_SMALL_INT(n);
}
static MP_DEFINE_CONST_FUN_OBJ_1(eboardio_take_obj, eboardio_take);

static const mp_rom_map_elem_t eboardio_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_eboardio) },
    { MP_ROM_QSTR(MP_QSTR_take), MP_ROM_PTR(&eboardio_take_obj) },
};
static MP_DEFINE_CONST_DICT(eboardio_globals, eboardio_globals_table);

const mp_obj_module_t eboardio_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&eboardio_globals,
};

MP_REGISTER_MODULE(MP_QSTR_eboardio, eboardio_module);
