/* README example: 2^10 and 3^4 modulo 65537 in one constant-time batch. */
#include <stdio.h>
#include <oblivex.h>

int main(void) {
    const uint8_t m[] = {0x01, 0x00, 0x01}, bases[] = {2, 3}, exps[] = {10, 4};
    uint8_t out[2 * sizeof m]; /* two results, each as long as the modulus */
    size_t written = 0;
    oblivex_mont_ctx *ctx = NULL;
    oblivex_status st = oblivex_mont_ctx_new(m, sizeof m, &ctx);
    if (st == OBLIVEX_OK) st = oblivex_mod_exp_batch(ctx, bases, sizeof bases, exps, sizeof exps, 2, out, sizeof out, &written);
    oblivex_mont_ctx_free(ctx);
    if (st != OBLIVEX_OK) return fprintf(stderr, "oblivex: %s\n", oblivex_status_str(st)), 1;
    printf("2^10 = %d, 3^4 = %d (mod 65537)\n", out[1] << 8 | out[2], out[4] << 8 | out[5]);
    return !(out[1] == 4 && out[2] == 0 && out[5] == 81);
}
