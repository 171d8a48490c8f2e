package io.ordo.simulation;

import io.ordo.domain.GroupName;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * The consumer groups of a seed's run (docs/groups.md), drawn from a stream of their own so a seed
 * without them is drawn exactly as before there were groups: in about a quarter of the seeds (when the run
 * serves groups at all), 4 % of the steps create or delete a group (names
 * {@code g0}–{@code g2}, so a create often finds its group and a delete sometimes finds none), now and
 * then through a group's store; while the queue has groups, every step that goes through a store is made
 * through the queue's own store or one of its groups' (the view it acts on, a group twice as often as the
 * own view), and now and then through a deleted group's, whose calls must be refused.
 *
 * <p>This class follows which groups exist, as the schedule alone determines it (a create answers false
 * exactly when the group exists).
 */
final class GroupSteps {
    static final double SEED_SHARE = 0.25;
    static final double STEP_SHARE = 0.04;
    private static final GroupName[] NAMES = {GroupName.of("g0"), GroupName.of("g1"), GroupName.of("g2")};
    private static final Comparator<GroupName> BY_NAME = Comparator.comparing(GroupName::value);

    private final SplittableRandom random;
    private final boolean used;
    private final TreeSet<GroupName> existing = new TreeSet<>(BY_NAME);
    private final TreeSet<GroupName> deleted = new TreeSet<>(BY_NAME);

    /** {@code enabled}: whether the run serves groups; when not, no seed has group steps. */
    GroupSteps(long seed, boolean enabled) {
        this.random = new SplittableRandom(seed ^ 0x6A09E667F3BCC909L);
        this.used = enabled && random.nextDouble() < SEED_SHARE;
    }

    /** Whether this seed has group steps. */
    boolean used() {
        return used;
    }

    /** Whether the next step creates or deletes a group. */
    boolean next() {
        return used && random.nextDouble() < STEP_SHARE;
    }

    /** The groups that exist now, by name. */
    List<GroupName> existing() {
        return List.copyOf(existing);
    }

    boolean exists(GroupName group) {
        return existing.contains(group);
    }

    /** Creates a group (mostly) or deletes one, now and then through a group's store (which need not exist). */
    Step administer() {
        GroupName name = NAMES[random.nextInt(NAMES.length)];
        Step step;
        if (existing.isEmpty() || random.nextDouble() < 0.6) {
            step = new Step.CreateGroup(name);
            existing.add(name);
            deleted.remove(name);
        } else {
            step = new Step.DeleteGroup(name);
            if (existing.remove(name)) {
                deleted.add(name);
            }
        }
        return random.nextDouble() < 0.25 ? new Step.InGroup(NAMES[random.nextInt(NAMES.length)], step) : step;
    }

    /**
     * The view the next store call goes through: empty for the queue's own store (always, in a seed without
     * groups or while the queue has none), else the own store or one of the groups, each group twice as
     * likely as the own view; now and then a deleted group.
     */
    Optional<GroupName> view() {
        if (!used || existing.isEmpty() && deleted.isEmpty()) {
            return Optional.empty();
        }
        if (!deleted.isEmpty() && random.nextDouble() < 0.03) {
            return Optional.of(new ArrayList<>(deleted).get(random.nextInt(deleted.size())));
        }
        if (existing.isEmpty()) {
            return Optional.empty();
        }
        // the groups receive every new task, the own view only keeps its remainder: each group counts twice
        int pick = random.nextInt(2 * existing.size() + 1);
        return pick == 0 ? Optional.empty() : Optional.of(new ArrayList<>(existing).get((pick - 1) / 2));
    }
}
