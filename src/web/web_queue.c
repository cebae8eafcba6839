/*
 * web_queue.c - culprit web's exploration queue (culprit/web.h; the
 * queue of Apollo's Figure 3, seeds/000): the requests still to run, each
 * with the state it runs in, taken oldest first (breadth first, Apollo's
 * Base strategy), and the transitions queued so far, so that a request
 * whose script, input names and state were seen before is not queued
 * again (state matching).  A request made from an input constraint
 * differs from the one it came from only in a value, so its values are
 * always part of its transition.
 */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "culprit/web.h"

/* Where key is, or goes, in the sorted explored keys. */
static size_t find_key(const culprit_web_queue *queue, const char *key, bool *found)
{
    size_t low = 0, high = queue->explored_count;
    *found = false;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        int order = strcmp(queue->explored[middle], key);
        if (order == 0) {
            *found = true;
            return middle;
        }
        if (order < 0)
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

static culprit_status remember(culprit_web_queue *queue, char *key, size_t at, culprit_error *err)
{
    if (!CULPRIT_GROW(queue->explored, queue->explored_capacity, queue->explored_count + 1, 16))
        return culprit_fail_memory(err);
    memmove(queue->explored + at + 1, queue->explored + at,
            (queue->explored_count - at) * sizeof *queue->explored);
    queue->explored[at] = key;
    queue->explored_count++;
    return CULPRIT_OK;
}

/* A request queued by its names is also known by its values, so that a
 * generated request equal to it is not run again. */
static culprit_status remember_values(culprit_web_queue *queue, const culprit_web_request *request,
                                      const char *state_digest, culprit_error *err)
{
    char *key = NULL;
    bool found = false;
    culprit_status status = culprit_web_request_key(request, state_digest, true, &key, err);
    size_t at = status == CULPRIT_OK ? find_key(queue, key, &found) : 0;
    if (status == CULPRIT_OK && !found && (status = remember(queue, key, at, err)) == CULPRIT_OK)
        return CULPRIT_OK;
    free(key);
    return status;
}

culprit_status culprit_web_queue_push(culprit_web_queue *queue, culprit_web_step *step,
                                      const char *state_digest, bool *queued, culprit_error *err)
{
    *queued = false;
    char *key = NULL;
    bool found = false;
    culprit_status status = culprit_web_request_key(&step->request, state_digest,
                                                    queue->match_values || step->generated, &key, err);
    size_t at = status == CULPRIT_OK ? find_key(queue, key, &found) : 0;
    if (status == CULPRIT_OK && !found && queue->first > 0 && queue->count == queue->capacity) {
        /* reuse the room of the steps taken */
        memmove(queue->steps, queue->steps + queue->first,
                (queue->count - queue->first) * sizeof *queue->steps);
        queue->count -= queue->first;
        queue->first = 0;
    }
    if (status == CULPRIT_OK && !found && !CULPRIT_GROW(queue->steps, queue->capacity, queue->count + 1, 16))
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK && !found)
        status = remember(queue, key, at, err);
    if (status != CULPRIT_OK || found) {
        free(key);
        culprit_web_step_free(step);
        return status;
    }
    if (!queue->match_values && !step->generated)
        status = remember_values(queue, &step->request, state_digest, err);
    if (status != CULPRIT_OK) {
        culprit_web_step_free(step);
        return status;
    }
    queue->steps[queue->count++] = *step;
    step->request = (culprit_web_request){0};
    step->conditions = NULL;
    step->condition_count = 0;
    *queued = true;
    return CULPRIT_OK;
}

bool culprit_web_queue_pop(culprit_web_queue *queue, culprit_web_step *step)
{
    if (queue->first >= queue->count)
        return false;
    *step = queue->steps[queue->first++];
    return true;
}

size_t culprit_web_queue_pending(const culprit_web_queue *queue)
{
    return queue->count - queue->first;
}

culprit_web_step *culprit_web_queue_at(culprit_web_queue *queue, size_t index)
{
    return &queue->steps[queue->first + index];
}

void culprit_web_queue_take(culprit_web_queue *queue, size_t index, culprit_web_step *step)
{
    size_t at = queue->first + index;
    *step = queue->steps[at];
    memmove(queue->steps + at, queue->steps + at + 1, (queue->count - at - 1) * sizeof *queue->steps);
    queue->count--;
}

void culprit_web_step_free(culprit_web_step *step)
{
    culprit_web_request_free(&step->request);
    free(step->conditions);
    step->conditions = NULL;
    step->condition_count = 0;
}

void culprit_web_queue_free(culprit_web_queue *queue)
{
    for (size_t i = queue->first; i < queue->count; i++)
        culprit_web_step_free(&queue->steps[i]);
    free(queue->steps);
    for (size_t i = 0; i < queue->explored_count; i++)
        free(queue->explored[i]);
    free(queue->explored);
    *queue = (culprit_web_queue){0};
}
